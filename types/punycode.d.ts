declare module 'punycode/punycode.js' {
  /** RFC 3492/5891: a Unicode domain name to its ASCII (xn--) form. */
  export function toASCII(domain: string): string;
  const _default: { toASCII: typeof toASCII };
  export default _default;
}
