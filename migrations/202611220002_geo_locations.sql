-- Geography, filled at start from the reviewable files in geo/ (see src/geo/geo-sync.ts).
CREATE TABLE lb_regions (
  code       text PRIMARY KEY,
  name       text NOT NULL,
  sort_order integer NOT NULL
);

CREATE TABLE countries (
  code        text PRIMARY KEY,
  name        text NOT NULL,
  region_code text NOT NULL REFERENCES lb_regions (code),
  latitude    double precision NOT NULL,
  longitude   double precision NOT NULL
);

CREATE TABLE locations (
  id             bigserial PRIMARY KEY,
  code           text NOT NULL UNIQUE,
  name           text NOT NULL,
  country_code   text NOT NULL,
  timezone       text,
  latitude       double precision,
  longitude      double precision,
  lb_region_code text REFERENCES lb_regions (code),
  sort_order     integer NOT NULL DEFAULT 0,
  is_active      boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
