// IUGG mean Earth radius; the sphere's error (< 0.5 %) is far below what steering can notice.
const EARTH_RADIUS_KM = 6371.0088;
const RADIANS_PER_DEGREE = Math.PI / 180;

export function greatCircleKm(
  a: { readonly latitude: number; readonly longitude: number },
  b: { readonly latitude: number; readonly longitude: number },
): number {
  const lat1 = a.latitude * RADIANS_PER_DEGREE;
  const lat2 = b.latitude * RADIANS_PER_DEGREE;
  const sinHalfDLat = Math.sin((lat2 - lat1) / 2);
  const sinHalfDLon = Math.sin(((b.longitude - a.longitude) * RADIANS_PER_DEGREE) / 2);
  const h = sinHalfDLat * sinHalfDLat + Math.cos(lat1) * Math.cos(lat2) * sinHalfDLon * sinHalfDLon;
  // Rounding can push h a hair above 1 for antipodal points, and asin would return NaN.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
