const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 address in its canonical form: four decimal octets, no leading zero. */
const DOTTED_QUAD = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

/** Whether `address` is an IPv4 address as a socket reports it (no parsing needed to use it). */
export function isDottedQuad(address: string): boolean {
  return DOTTED_QUAD.test(address);
}
