// The building blocks of the API contract's argument schemas (zod), each refusing in Baton's words
// ("tabId must not be empty", "options has an unknown field \"shell\""), and the one problem a
// refused argument is reported with. Whatever arrives from the page is hostile: exact types, no
// unknown fields, bounded sizes. Objects must be plain (a prototype of their own is refused), and
// a field is known only by the schema's own list: `toString`, `constructor` or a `__proto__` that
// JSON.parse made an own field are unknown fields like any other. Pure.

import { z } from "zod";

export const MaxText = 1_000_000;

export function text(options: { min?: number; max?: number; pattern?: RegExp } = {}): z.ZodString {
  const { min = 0, max = MaxText, pattern } = options;
  let schema = z.string({ error: "must be a string" });
  if (min > 0) schema = schema.min(min, min === 1 ? "must not be empty" : `must have at least ${min} characters`);
  schema = schema.max(max, `is too long (at most ${max} characters)`);
  return pattern === undefined ? schema : schema.regex(pattern, "has an invalid format");
}

export function integer(min: number, max: number): z.ZodNumber {
  const message = `must be an integer from ${min} to ${max}`;
  return z.int({ error: message }).min(min, message).max(max, message);
}

export const flag = z.boolean({ error: "must be true or false" });

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [K in T[number]]: K }> {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

/** A list of at most `maxItems`, typed readonly (whoever gets it only reads it). */
export function listOf<T extends z.ZodType>(item: T, maxItems = 10_000): z.ZodType<readonly z.output<T>[]> {
  return z.array(item, { error: "must be a list" }).max(maxItems, `has too many items (at most ${maxItems})`);
}

type Optionals<O extends z.ZodRawShape> = { [K in keyof O]: z.ZodOptional<O[K]> };

/** Exactly these fields: the required ones, and the optional ones (absent or undefined). */
export function strictFields<R extends z.ZodRawShape>(required: R): z.ZodObject<R, z.core.$strict>;
export function strictFields<R extends z.ZodRawShape, O extends z.ZodRawShape>(required: R, optional: O): z.ZodObject<R & Optionals<O>, z.core.$strict>;
export function strictFields(required: z.ZodRawShape, optional: z.ZodRawShape = {}): z.ZodObject {
  const optionals = Object.fromEntries(Object.entries(optional).map(([key, schema]) => [key, z.optional(schema)]));
  return z.strictObject({ ...required, ...optionals }, { error: (issue) => (issue.code === "unrecognized_keys" ? `has an unknown field ${JSON.stringify(issue.keys[0])}` : "must be an object") });
}

/** A plain object with exactly these fields. */
export function fields<R extends z.ZodRawShape>(required: R): ReturnType<typeof plain<z.ZodObject<R, z.core.$strict>>>;
export function fields<R extends z.ZodRawShape, O extends z.ZodRawShape>(required: R, optional: O): ReturnType<typeof plain<z.ZodObject<R & Optionals<O>, z.core.$strict>>>;
export function fields(required: z.ZodRawShape, optional: z.ZodRawShape = {}) {
  return plain(strictFields(required, optional));
}

/** One of several strict objects, told apart by `key` ("behavior": "allow" or "deny"). */
export function variants<K extends string, T extends readonly [z.ZodObject, ...z.ZodObject[]]>(key: K, options: T) {
  const tags = options.flatMap((o) => {
    const tag = o.shape[key];
    return tag instanceof z.ZodLiteral ? [...tag.values] : [];
  });
  const words = tags.map((tag) => JSON.stringify(tag));
  const message = `must be ${words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words.at(-1)}` : words[0]}`;
  const known = new Set<unknown>(tags);
  // An object of a known kind is refused for its prototype; anything else for what `key` must be.
  return plain(z.discriminatedUnion(key, options, { error: message }), (v) =>
    typeof v === "object" && v !== null && known.has((v as Record<string, unknown>)[key]) ? { message: "must be an object" } : { message, path: [key] },
  );
}

/** The schema, for plain objects only (what JSON.parse and structured clone make). */
export function plain<T extends z.ZodType>(schema: T, refusal: (value: unknown) => { readonly message: string; readonly path?: readonly string[] } = () => ({ message: "must be an object" })) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      if (isPlainObject(value)) return;
      const { message, path = [] } = refusal(value);
      ctx.addIssue({ code: "custom", message, path: [...path], input: value });
    })
    .pipe(schema);
}

/**
 * An object whose values all pass `value` (keys are free text, bounded). A `__proto__` key is
 * refused: whoever copies the record by assignment (`out[key] = …`) would set a prototype, or
 * silently drop the entry, instead of storing it.
 */
export function record<T extends z.ZodType>(value: T, maxKeys = 1000) {
  const problem = (v: unknown): string | undefined => {
    if (!isPlainObject(v)) return "must be an object";
    const keys = Object.keys(v);
    if (keys.length > maxKeys) return "has too many fields";
    return keys.includes("__proto__") ? 'must not have a field named "__proto__"' : undefined;
  };
  return z.custom<unknown>((v) => problem(v) === undefined, { error: (issue) => problem(issue.input) }).pipe(z.record(z.string(), value));
}

/** The first schema that takes the value; refused with the first one's reason. */
export function either<T extends readonly [z.ZodType, z.ZodType, ...z.ZodType[]]>(...options: T): z.ZodUnion<T> {
  return z.union(options);
}

/** Any JSON object (a tool's input), bounded in depth and size; passed on as it came (not copied). */
export function jsonObject<T extends object>(maxBytes = 5_000_000): z.ZodType<T> {
  const problem = (v: unknown): string | undefined => {
    if (!isPlainObject(v)) return "must be an object";
    if (!isJson(v, 0)) return "must be plain JSON";
    let size: number;
    try {
      size = JSON.stringify(v).length;
    } catch {
      return "must be plain JSON";
    }
    return size > maxBytes ? "is too large" : undefined;
  };
  return z.custom<T>((v) => problem(v) === undefined, { error: (issue) => problem(issue.input) });
}

function isJson(v: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  if (isPlainObject(v)) return Object.values(v).every((x) => isJson(x, depth + 1));
  return false;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The problem to report for a refused value named `name`: the first in the schema's order, except
 * that an object's unknown field comes before any problem inside it; a union's is its first
 * option's. "options.cwd must not be empty", `answer.answers["Which size?"][1] must be a string`.
 */
export function problemOf(issues: readonly z.core.$ZodIssue[], name: string): string {
  const first = issues[0];
  if (first === undefined) return `${name} is invalid`;
  const unknown = issues.find((i) => i.code === "unrecognized_keys" && isPrefix(i.path, first.path));
  const issue = unknown ?? first;
  if (issue.code === "invalid_union" && issue.errors.length > 0 && issue.errors[0]!.length > 0) {
    return problemOf(issue.errors[0]!, name + pathText(issue.path));
  }
  return `${name}${pathText(issue.path)} ${issue.message}`;
}

function isPrefix(prefix: readonly PropertyKey[], path: readonly PropertyKey[]): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => key === path[i]);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === "number" ? `[${key}]` : typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(String(key))}]`)).join("");
}

type DeepMutable<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;
/** The same type, not merely assignable both ways (which a missing optional field would pass). */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * The schema of a type declared elsewhere (NewSessionOptions, PermissionAnswer, …), typed as it:
 * the compiler checks that every value the schema lets through is one, and that every field the
 * type has is in the schema (readonly aside), so neither can change alone.
 */
export function shapeOf<T>() {
  return <S extends z.ZodType<T>>(schema: S & (Same<DeepMutable<z.output<S>>, DeepMutable<T>> extends true ? unknown : { readonly "the schema's shape differs from the type": T })): z.ZodType<T> => schema;
}

/** The schema, typed as T: everything it lets through is a T; it may refuse some (a pattern refuses some strings). */
export function within<T>() {
  return <S extends z.ZodType<T>>(schema: S): z.ZodType<T> => schema;
}
