/**
 * Generates a string that matches a (simple) regular expression, for building
 * valid sample records from schema `pattern`s. It understands the subset
 * schema authors use: anchors, top-level and group alternation, character
 * classes with ranges and escapes, \d \w, literals and the quantifiers
 * * + ? {n} {n,} {n,m}. Anything else throws, so a pattern the generator
 * cannot satisfy fails loudly instead of producing an invalid record.
 */

type Node =
  | { kind: 'chars'; alphabet: string[]; min: number; max: number }
  | { kind: 'group'; branches: Node[][]; min: number; max: number };

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const DIGITS = '0123456789'.split('');
const WORD = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', ...DIGITS, '_'];

export class PatternNotSupported extends Error {}

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  private fail(why: string): never {
    throw new PatternNotSupported(`cannot generate a value for pattern /${this.src}/: ${why} at position ${this.i}`);
  }

  parseAll(): Node[][] {
    const branches = this.parseBranches();
    if (this.i < this.src.length) this.fail('unexpected ")"');
    return branches;
  }

  private parseBranches(): Node[][] {
    const branches: Node[][] = [this.parseSequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      branches.push(this.parseSequence());
    }
    return branches;
  }

  private parseSequence(): Node[] {
    const seq: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const c = this.src[this.i]!;
      if (c === '^' || c === '$') { this.i++; continue; }
      let node: Node;
      if (c === '(') {
        this.i++;
        if (this.src.startsWith('?:', this.i)) this.i += 2;
        else if (this.src[this.i] === '?') this.fail('lookarounds and named groups are not supported');
        const branches = this.parseBranches();
        if (this.src[this.i] !== ')') this.fail('missing ")"');
        this.i++;
        node = { kind: 'group', branches, min: 1, max: 1 };
      } else if (c === '[') {
        node = { kind: 'chars', alphabet: this.parseClass(), min: 1, max: 1 };
      } else if (c === '\\') {
        this.i++;
        node = { kind: 'chars', alphabet: this.escape(this.src[this.i++]), min: 1, max: 1 };
      } else if (c === '.') {
        this.i++;
        node = { kind: 'chars', alphabet: WORD, min: 1, max: 1 };
      } else if ('*+?{'.includes(c)) {
        this.fail('quantifier without anything to repeat');
      } else {
        this.i++;
        node = { kind: 'chars', alphabet: [c], min: 1, max: 1 };
      }
      this.quantifier(node);
      seq.push(node);
    }
    return seq;
  }

  private quantifier(node: Node): void {
    const c = this.src[this.i];
    if (c === '*') { node.min = 0; node.max = Infinity; this.i++; }
    else if (c === '+') { node.min = 1; node.max = Infinity; this.i++; }
    else if (c === '?') { node.min = 0; node.max = 1; this.i++; }
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) this.fail('bad {n,m} quantifier');
      node.min = Number(m[1]);
      node.max = m[2] === undefined ? node.min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length;
    } else return;
    if (this.src[this.i] === '?' || this.src[this.i] === '+') this.i++; // lazy / possessive: same strings
  }

  private escape(c: string | undefined): string[] {
    if (c === undefined) this.fail('pattern ends with "\\"');
    if (c === 'd') return DIGITS;
    if (c === 'w') return WORD;
    if (c === 's') return [' '];
    if (/[A-Za-z0-9]/.test(c)) this.fail(`escape "\\${c}" is not supported`);
    return [c];
  }

  private parseClass(): string[] {
    this.i++; // [
    let negated = false;
    if (this.src[this.i] === '^') { negated = true; this.i++; }
    const set = new Set<string>();
    let first = true;
    while (this.i < this.src.length && (this.src[this.i] !== ']' || first)) {
      first = false;
      let from: string[];
      if (this.src[this.i] === '\\') { this.i++; from = this.escape(this.src[this.i++]); }
      else from = [this.src[this.i++]!];
      if (from.length === 1 && this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let to: string;
        if (this.src[this.i] === '\\') { this.i++; const e = this.escape(this.src[this.i++]); if (e.length !== 1) this.fail('bad range'); to = e[0]!; }
        else to = this.src[this.i++]!;
        const a = from[0]!.codePointAt(0)!, b = to.codePointAt(0)!;
        if (b < a) this.fail('reversed range');
        for (let cp = a; cp <= b; cp++) set.add(String.fromCodePoint(cp));
      } else from.forEach((x) => set.add(x));
    }
    if (this.src[this.i] !== ']') this.fail('missing "]"');
    this.i++;
    const alphabet = negated ? PRINTABLE.filter((c) => !set.has(c)) : [...set];
    if (!alphabet.length) this.fail('empty character class');
    // letters and digits first, so samples look like codes rather than punctuation
    return alphabet.sort((x, y) => Number(!/[A-Za-z0-9]/.test(x)) - Number(!/[A-Za-z0-9]/.test(y)));
  }
}

/** Writes `seed` in the alphabet, so different seeds give different strings. */
function encode(seed: number, alphabet: string[], length: number): string {
  let n = seed;
  let out = '';
  for (let k = 0; k < length; k++) {
    out = alphabet[n % alphabet.length]! + out;
    n = Math.floor(n / alphabet.length);
  }
  return out;
}

function render(seq: Node[], seed: number, extra: number): string {
  let out = '';
  for (const node of seq) {
    const count = node.max === Infinity ? node.min + extra : Math.min(node.max, node.min + extra);
    for (let r = 0; r < Math.max(count, node.min); r++) {
      if (node.kind === 'chars') {
        // one character per repetition; the run as a whole encodes the seed
        out += encode(seed, node.alphabet, count)[r] ?? node.alphabet[0];
      } else {
        out += render(node.branches[0]!, seed, extra);
      }
    }
  }
  return out;
}

/**
 * A string matching `pattern` whose length lies in [minLength, maxLength];
 * distinct seeds give distinct strings where the pattern leaves room.
 */
export function sampleForPattern(pattern: string, seed: number, minLength = 0, maxLength = 255): string {
  const branches = new Parser(pattern).parseAll();
  const re = new RegExp(pattern, 'u');
  for (const branch of branches) {
    for (const extra of [6, 5, 4, 3, 2, 1, 0, 8, 12, 20]) {
      const s = render(branch, seed, extra);
      if (s.length >= minLength && s.length <= maxLength && re.test(s)) return s;
    }
  }
  throw new PatternNotSupported(`cannot generate a value for pattern /${pattern}/ with length ${minLength}..${maxLength}`);
}
