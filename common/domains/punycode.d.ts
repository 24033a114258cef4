// The npm package punycode (its CommonJS file, not Node's deprecated built-in of the same name).
declare module 'punycode/punycode.js' {
  const punycode: { toASCII(domain: string): string; toUnicode(domain: string): string };
  export default punycode;
}
