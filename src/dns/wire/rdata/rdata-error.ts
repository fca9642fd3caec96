/** Invalid RDATA, in presentation or wire form. `field` names the offending field (e.g. `preference`). */
export class RdataError extends Error {
  override readonly name = 'RdataError';

  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
