// Reading JSON the way the standalone verifier (Python's json module) reads it, and writing
// RFC 8785 canonical JSON. No dependencies: a module of this page only.
//
// Why not JSON.parse: it keeps the last of two members with the same name silently (a
// forged "result" put in front of the genuine one would pass unseen), it cannot tell the
// integer 1 from the float 1.0 (a nonce must be an integer), and it rounds integers past
// 2^53, which RFC 8785 refuses. This reader refuses duplicate member names (I-JSON, RFC
// 7493) naming where, keeps integral floats as PyFloat, and integers past 2^53 as BigInt.

export class PyFloat {
  // A float written with a fraction or an exponent whose value is integral (1.0, 1e2).
  constructor(value) {
    this.value = value;
  }
  valueOf() {
    return this.value;
  }
  toJSON() {
    return this.value;
  }
}

export class Duplicate extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

export class NotJSON extends Error {}

export class NoCanonicalForm extends Error {}

const MAX_DEPTH = 900;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export function isDict(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    !(value instanceof PyFloat)
  );
}

export function get(value, ...path) {
  for (const name of path) {
    value = isDict(value) && Object.hasOwn(value, name) ? value[name] : null;
  }
  return value;
}

/** Parse text as Python's json.loads does (NaN and Infinity included); with `unique`,
 * a member named twice in one object throws Duplicate(field, message). */
export function parse(text, { unique = true } = {}) {
  let at = 0;
  const fail = (what) => {
    throw new NotJSON(`${what} at character ${at}`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at += 1;
  };
  const string = () => {
    at += 1; // the opening quote
    let out = "";
    for (;;) {
      if (at >= text.length) fail("unterminated string");
      const char = text[at];
      if (char === '"') {
        at += 1;
        return out;
      }
      if (char === "\\") {
        const code = text[at + 1];
        if (code === "u") {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          out += String.fromCharCode(parseInt(hex, 16));
          at += 6;
        } else if (code !== undefined && Object.hasOwn(ESCAPES, code)) {
          out += ESCAPES[code];
          at += 2;
        } else {
          fail("bad escape");
        }
      } else if (char < " ") {
        fail("control character in a string");
      } else {
        out += char;
        at += 1;
      }
    }
  };
  const number = () => {
    NUMBER.lastIndex = at;
    const match = NUMBER.exec(text);
    if (!match) fail("expecting a value");
    at += match[0].length;
    if (match[1] === undefined && match[2] === undefined) {
      const value = Number(match[0]);
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // -0 is the integer 0
      return BigInt(match[0]);
    }
    const value = Number(match[0]);
    return Number.isInteger(value) ? new PyFloat(value) : value;
  };
  const value = (path, depth) => {
    if (depth > MAX_DEPTH) fail("nested too deep");
    space();
    const char = text[at];
    if (char === "{") return object(path, depth);
    if (char === "[") return array(path, depth);
    if (char === '"') return string();
    for (const [word, result] of [
      ["true", true],
      ["false", false],
      ["null", null],
      ["NaN", NaN],
      ["Infinity", Infinity],
      ["-Infinity", -Infinity],
    ]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    return number();
  };
  const object = (path, depth) => {
    at += 1;
    const found = Object.create(null);
    space();
    if (text[at] === "}") {
      at += 1;
      return found;
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail("expecting a property name in double quotes");
      const name = string();
      if (unique && Object.hasOwn(found, name)) {
        throw new Duplicate(
          [...path, name].join("."),
          `Duplicate member name ${pyRepr(name)}: an object names it twice. Request bodies ` +
            "are I-JSON (RFC 7493): each name at most once in an object.",
        );
      }
      space();
      if (text[at] !== ":") fail("expecting ':'");
      at += 1;
      found[name] = value([...path, name], depth + 1);
      space();
      if (text[at] === ",") {
        at += 1;
      } else if (text[at] === "}") {
        at += 1;
        return found;
      } else {
        fail("expecting ',' or '}'");
      }
    }
  };
  const array = (path, depth) => {
    at += 1;
    const found = [];
    space();
    if (text[at] === "]") {
      at += 1;
      return found;
    }
    for (;;) {
      found.push(value([...path, String(found.length)], depth + 1));
      space();
      if (text[at] === ",") {
        at += 1;
      } else if (text[at] === "]") {
        at += 1;
        return found;
      } else {
        fail("expecting ',' or ']'");
      }
    }
  };
  const result = value([], 0);
  space();
  if (at !== text.length) fail("extra data");
  return result;
}

// --- Python's ways of writing values, so that messages read as the other verifiers' ---

function pyFloat(value) {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = value.toExponential().split("e"); // shortest round-trip digits
  const power = Number(exp);
  const digits = mantissa.replace(".", "").replace("-", "");
  const sign = value < 0 ? "-" : "";
  if (power < -4 || power >= 16) {
    const shown = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${shown}e${power < 0 ? "-" : "+"}${String(Math.abs(power)).padStart(2, "0")}`;
  }
  if (power < 0) return `${sign}0.${"0".repeat(-power - 1)}${digits}`;
  const whole = digits.slice(0, power + 1).padEnd(power + 1, "0");
  const fraction = digits.slice(power + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}

function asciiString(text) {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const char = text[i];
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\b") out += "\\b";
    else if (char === "\f") out += "\\f";
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

/** Python's json.dumps(value, ensure_ascii=True): ", " and ": " between items. */
export function pyDumps(value) {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return asciiString(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof PyFloat) return pyFloat(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(", ")}]`;
  return `{${Object.keys(value)
    .map((name) => `${asciiString(name)}: ${pyDumps(value[name])}`)
    .join(", ")}}`;
}

/** Python's repr() of a str (as an f-string's !r writes it). */
export function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0)) {
      out += `\\x${code.toString(16).padStart(2, "0")}`;
    } else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += char;
  }
  return out + quote;
}

/** Python's str() of a decoded JSON value (what `str(value)` compares). */
export function pyStr(value) {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return `[${value.map(pyReprValue).join(", ")}]`;
  if (isDict(value)) {
    return `{${Object.keys(value)
      .map((name) => `${pyRepr(name)}: ${pyReprValue(value[name])}`)
      .join(", ")}}`;
  }
  if (value instanceof PyFloat || (typeof value === "number" && !Number.isInteger(value))) {
    const text = pyFloat(Number(value));
    return text === "NaN" ? "nan" : text.replace("Infinity", "inf");
  }
  return String(value);
}

function pyReprValue(value) {
  return typeof value === "string" ? pyRepr(value) : pyStr(value);
}

function numeric(value) {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "number" || typeof value === "bigint") return value;
  return undefined;
}

/** Python's == between decoded JSON values (True == 1, 1.0 == 1, NaN != NaN). */
export function pyEqual(a, b) {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    // biome-ignore lint: loose equality compares a BigInt with a Number by value
    return x !== undefined && y !== undefined && x == y; // eslint-disable-line eqeqeq
  }
  if (a === null || typeof a === "string") return a === b;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => pyEqual(item, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const names = Object.keys(a);
    if (names.length !== Object.keys(b).length) return false;
    return names.every((name) => Object.hasOwn(b, name) && pyEqual(a[name], b[name]));
  }
  return false;
}

/** Python's isinstance(value, int) without bool: an integer written without a fraction. */
export function isInt(value) {
  return (typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint";
}

// --- RFC 8785 ---------------------------------------------------------------------------

function canonicalNumber(value) {
  if (typeof value === "bigint") throw new NoCanonicalForm("an integer past 2^53");
  const number = Number(value);
  if (!Number.isFinite(number)) throw new NoCanonicalForm("NaN or Infinity");
  return String(number); // ECMAScript's Number to String is what RFC 8785 prescribes
}

function canonicalInto(value, out, state) {
  if (value === null || value === undefined) out.push("null");
  else if (value === true) out.push("true");
  else if (value === false) out.push("false");
  else if (typeof value === "string") {
    if (!value.isWellFormed()) state.notUnicode = true;
    out.push(JSON.stringify(value));
  } else if (typeof value === "number" || typeof value === "bigint" || value instanceof PyFloat) {
    out.push(canonicalNumber(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, index) => {
      if (index) out.push(",");
      canonicalInto(item, out, state);
    });
    out.push("]");
  } else {
    out.push("{");
    // Sorted by UTF-16 code units: JavaScript's default string order.
    Object.keys(value)
      .sort()
      .forEach((name, index) => {
        if (index) out.push(",");
        if (!name.isWellFormed()) state.notUnicode = true;
        out.push(`${JSON.stringify(name)}:`);
        canonicalInto(value[name], out, state);
      });
    out.push("}");
  }
}

/** The RFC 8785 canonical JSON of a decoded value, as UTF-8 bytes. */
export function canonical(value) {
  const out = [];
  const state = { notUnicode: false };
  canonicalInto(value, out, state);
  if (state.notUnicode) throw new NoCanonicalForm("text that is not Unicode");
  return new TextEncoder().encode(out.join(""));
}
