// JSON text → value, read exactly as wasm/include/pipelab/pipeline/json.hpp reads it: the same
// checks in the same order, offsets counted in UTF-8 bytes, duplicate keys and nesting beyond 64
// levels rejected, the same messages. JSON.parse would take a duplicate key's last value and word
// its errors its own way; a spec given as text must fail the same on both sides. Change the two
// readers together.
import { SpecError } from './specFields';

const MAX_DEPTH = 64;
const [QUOTE, BACKSLASH, MINUS, DOT] = [0x22, 0x5c, 0x2d, 0x2e];
const ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

class Reader {
  private pos = 0;
  // ignoreBOM: a U+FEFF inside a string is kept, as C++ keeps its bytes.
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  constructor(private readonly bytes: Uint8Array) {}

  document(): unknown {
    const value = this.value(0);
    this.skipWs();
    if (this.pos !== this.bytes.length) this.fail('unexpected trailing characters');
    return value;
  }

  private fail(what: string): never {
    throw new SpecError('', `invalid JSON at offset ${this.pos}: ${what}`);
  }
  private peek(): number {
    return this.pos < this.bytes.length ? this.bytes[this.pos] : 0;
  }
  private skipWs(): void {
    while (this.pos < this.bytes.length && isSpace(this.bytes[this.pos])) this.pos++;
  }
  private expect(c: string): void {
    if (this.peek() !== c.charCodeAt(0)) this.fail(`expected '${c}'`);
    this.pos++;
  }
  private word(w: string): boolean {
    for (let i = 0; i < w.length; i++)
      if (this.bytes[this.pos + i] !== w.charCodeAt(i)) return false;
    this.pos += w.length;
    return true;
  }

  private value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.skipWs();
    const c = this.peek();
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    if (c === QUOTE) return this.string();
    if (this.word('true')) return true;
    if (this.word('false')) return false;
    if (this.word('null')) return null;
    if (c === MINUS || isDigit(c)) return this.number();
    return this.fail('expected a value');
  }

  private object(depth: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.expect('{');
    this.skipWs();
    if (this.peek() === 0x7d) {
      this.pos++;
      return obj;
    }
    for (;;) {
      this.skipWs();
      const key = this.string();
      if (Object.prototype.hasOwnProperty.call(obj, key)) this.fail(`duplicate key "${key}"`);
      this.skipWs();
      this.expect(':');
      // defineProperty: a key "__proto__" is data, as JSON.parse makes it.
      const value = this.value(depth + 1);
      Object.defineProperty(obj, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWs();
      if (this.peek() === 0x2c) {
        this.pos++;
        continue;
      }
      this.expect('}');
      return obj;
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.expect('[');
    this.skipWs();
    if (this.peek() === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipWs();
      if (this.peek() === 0x2c) {
        this.pos++;
        continue;
      }
      this.expect(']');
      return out;
    }
  }

  /** Raw runs are decoded as UTF-8; escapes become UTF-16 code units, so an escaped surrogate
   * pair is one character and a lone one stays lone (3 bytes to TextEncoder, as in C++). */
  private string(): string {
    this.expect('"');
    let out = '';
    let run = this.pos;
    for (;;) {
      if (this.pos >= this.bytes.length) this.fail('unterminated string');
      const c = this.bytes[this.pos++];
      if (c === QUOTE) return out + this.decoder.decode(this.bytes.subarray(run, this.pos - 1));
      if (c < 0x20) this.fail('control character in string');
      if (c !== BACKSLASH) continue;
      out += this.decoder.decode(this.bytes.subarray(run, this.pos - 1));
      const e = this.peek();
      this.pos++;
      if (e === 0x75) out += String.fromCodePoint(this.codePoint());
      else if (ESCAPES[e] !== undefined) out += ESCAPES[e];
      else this.fail('bad escape in string');
      run = this.pos;
    }
  }

  private hex4(): number {
    if (this.pos + 4 > this.bytes.length) this.fail('short \\u escape');
    let code = 0;
    for (let i = 0; i < 4; i++) {
      const h = this.bytes[this.pos++];
      const digit = isDigit(h)
        ? h - 0x30
        : (h | 0x20) >= 0x61 && (h | 0x20) <= 0x66
          ? (h | 0x20) - 87
          : -1;
      if (digit < 0) this.fail('bad hex digit in \\u escape');
      code = code * 16 + digit;
    }
    return code;
  }

  /** After the "u" of an escape: a code unit, or a whole code point for an escaped pair. */
  private codePoint(): number {
    const code = this.hex4();
    const escapeFollows = this.bytes[this.pos] === BACKSLASH && this.bytes[this.pos + 1] === 0x75;
    if (code < 0xd800 || code > 0xdbff || !escapeFollows) return code;
    const at = this.pos;
    this.pos += 2;
    const low = this.hex4();
    if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    this.pos = at; // not a pair: the next escape is read on its own
    return code;
  }

  private number(): number {
    const start = this.pos;
    if (this.peek() === MINUS) this.pos++;
    if (this.peek() === 0x30) {
      this.pos++;
    } else if (isDigit(this.peek()) && this.peek() !== 0x30) {
      while (isDigit(this.peek())) this.pos++;
    } else {
      this.fail('bad number');
    }
    if (this.peek() === DOT) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail("bad number: digit expected after '.'");
      while (isDigit(this.peek())) this.pos++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      if (this.peek() === 0x2b || this.peek() === MINUS) this.pos++;
      if (!isDigit(this.peek())) this.fail('bad number: digit expected in exponent');
      while (isDigit(this.peek())) this.pos++;
    }
    return Number(this.decoder.decode(this.bytes.subarray(start, this.pos)));
  }
}

/** Parses JSON text; throws SpecError (path "") `invalid JSON at offset N: …` naming the byte. */
export function readJsonText(text: string): unknown {
  return new Reader(new TextEncoder().encode(text)).document();
}
