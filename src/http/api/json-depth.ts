/**
 * docs/reliability.md, "Hostile input": the deepest nesting a JSON body may have. A lead's body is
 * at most four levels deep (an audit's formData inside a JSON-RPC call's arguments inside params);
 * arrays nested 32,000 deep would cost a parse and a validation walk of tens of milliseconds.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` opens more than `limit` objects or arrays inside one another, read before
 * JSON.parse (one pass, no allocation). Brackets inside strings do not count; malformed JSON is
 * left to JSON.parse, which refuses it anyway.
 */
export function nestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
  }
  return false;
}
