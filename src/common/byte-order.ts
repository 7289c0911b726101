/**
 * Compares two strings in the byte order of their UTF-8 encodings, which is what a binary
 * collation gives (rules.md §6: "by name" is byte order, the same on both databases).
 *
 * UTF-8 byte order is code point order. JavaScript's `<` compares UTF-16 code units, which agree
 * with code points except in one place: a surrogate (0xD800–0xDFFF, half of a code point above
 * U+FFFF) sorts below 0xE000–0xFFFF although its code point is higher. This lifts surrogates above
 * that range at the first differing unit, which avoids encoding every string to a Buffer for each
 * comparison (the export sorts tens of thousands of rows). `localeCompare` would be wrong twice:
 * it ignores case and depends on the ICU data of the process.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
