// A tiny validator kit for arguments that arrive from the page (IPC or WebSocket): exact types,
// no unknown fields, bounded sizes. Each check returns an error message or undefined. Pure.
// Fields are looked up as own properties only: `key in spec` would take `toString`,
// `constructor` or `__proto__` (which JSON.parse makes an own field) for known ones.

export type Check = (value: unknown, path: string) => string | undefined;

export const MaxText = 1_000_000;

export function str(options: { min?: number; max?: number; pattern?: RegExp } = {}): Check {
  const { min = 0, max = MaxText, pattern } = options;
  return (v, path) => {
    if (typeof v !== "string") return `${path} must be a string`;
    if (v.length < min) return min === 1 ? `${path} must not be empty` : `${path} must have at least ${min} characters`;
    if (v.length > max) return `${path} is too long (at most ${max} characters)`;
    if (pattern !== undefined && !pattern.test(v)) return `${path} has an invalid format`;
    return undefined;
  };
}

export function int(min: number, max: number): Check {
  return (v, path) => (typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? undefined : `${path} must be an integer from ${min} to ${max}`);
}

export const bool: Check = (v, path) => (typeof v === "boolean" ? undefined : `${path} must be true or false`);

export function oneOf(values: readonly string[]): Check {
  return (v, path) => (typeof v === "string" && values.includes(v) ? undefined : `${path} must be one of ${values.join(", ")}`);
}

export function arrayOf(item: Check, maxItems = 10_000): Check {
  return (v, path) => {
    if (!Array.isArray(v)) return `${path} must be a list`;
    if (v.length > maxItems) return `${path} has too many items (at most ${maxItems})`;
    for (let i = 0; i < v.length; i++) {
      const error = item(v[i], `${path}[${i}]`);
      if (error !== undefined) return error;
    }
    return undefined;
  };
}

/** A plain object with exactly these fields (optional ones may be absent or undefined). */
export function object(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (v, path) => {
    if (!isPlainObject(v)) return `${path} must be an object`;
    for (const key of Object.keys(v)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return `${path} has an unknown field ${JSON.stringify(key)}`;
    }
    for (const [key, check] of Object.entries(required)) {
      const error = check(own(v, key), `${path}.${key}`);
      if (error !== undefined) return error;
    }
    for (const [key, check] of Object.entries(optional)) {
      const value = own(v, key);
      if (value === undefined) continue;
      const error = check(value, `${path}.${key}`);
      if (error !== undefined) return error;
    }
    return undefined;
  };
}

/**
 * An object whose values all pass `value` (keys are free text, bounded). A `__proto__` key is
 * refused: whoever copies the record by assignment (`out[key] = …`) would set a prototype, or
 * silently drop the entry, instead of storing it.
 */
export function record(value: Check, maxKeys = 1000): Check {
  return (v, path) => {
    if (!isPlainObject(v)) return `${path} must be an object`;
    const keys = Object.keys(v);
    if (keys.length > maxKeys) return `${path} has too many fields`;
    for (const key of keys) {
      if (key === "__proto__") return `${path} must not have a field named "__proto__"`;
      const error = value(v[key], `${path}[${JSON.stringify(key)}]`);
      if (error !== undefined) return error;
    }
    return undefined;
  };
}

export function anyOf(...checks: Check[]): Check {
  return (v, path) => {
    let first: string | undefined;
    for (const check of checks) {
      const error = check(v, path);
      if (error === undefined) return undefined;
      first ??= error;
    }
    return first;
  };
}

/** Any JSON object (tool inputs), bounded in depth and size. */
export function jsonObject(maxBytes = 5_000_000): Check {
  return (v, path) => {
    if (!isPlainObject(v)) return `${path} must be an object`;
    if (!isJson(v, 0)) return `${path} must be plain JSON`;
    let size: number;
    try {
      size = JSON.stringify(v).length;
    } catch {
      return `${path} must be plain JSON`;
    }
    return size > maxBytes ? `${path} is too large` : undefined;
  };
}

function isJson(v: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isPlainObject(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}

/** The object's own value of `key`; an inherited one (`constructor`, `toString`, …) reads as absent. */
function own(v: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(v, key) ? v[key] : undefined;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
