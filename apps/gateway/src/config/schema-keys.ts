import { isPlainObject, type PathSegment, valueAt } from "./values.js";

/** The parts of a zod 4 schema definition this walk reads. */
interface ZodDef {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
  valueType?: unknown;
  options?: unknown[];
  discriminator?: string;
  values?: unknown[];
  in?: unknown;
  getter?: () => unknown;
}

const WRAPPERS = new Set([
  "optional",
  "default",
  "prefault",
  "nullable",
  "readonly",
  "nonoptional",
  "catch",
  "success",
]);

function defOf(schema: unknown): ZodDef | undefined {
  if (typeof schema !== "object" || schema === null || !("_zod" in schema)) return undefined;
  const def = (schema as { _zod: { def?: ZodDef } })._zod.def;
  return typeof def?.type === "string" ? def : undefined;
}

/** Strips optional/default/pipe/lazy wrappers down to the schema that decides the shape. */
function unwrap(schema: unknown): ZodDef | undefined {
  let def = defOf(schema);
  for (let depth = 0; def && depth < 32; depth++) {
    if (WRAPPERS.has(def.type)) def = defOf(def.innerType);
    else if (def.type === "pipe") def = defOf(def.in);
    else if (def.type === "lazy" && def.getter) def = defOf(def.getter());
    else return def;
  }
  return def;
}

/** The object branches of a union that fit `value` (by discriminator when there is one). */
function objectBranches(def: ZodDef, value: unknown): ZodDef[] {
  const branches = (def.options ?? []).map(unwrap).filter((branch) => branch?.type === "object") as ZodDef[];
  const key = def.discriminator;
  if (!key || !isPlainObject(value)) return branches;
  const matching = branches.filter((branch) => unwrap(branch.shape?.[key])?.values?.includes(value[key]));
  return matching.length > 0 ? matching : branches;
}

function step(def: ZodDef, segment: PathSegment, value: unknown): unknown {
  switch (def.type) {
    case "object":
      return typeof segment === "string" ? def.shape?.[segment] : undefined;
    case "array":
      return def.element;
    case "record":
      return def.valueType;
    case "union":
      return objectBranches(def, value).find((branch) => typeof segment === "string" && branch.shape?.[segment])
        ?.shape?.[segment as string];
    default:
      return undefined;
  }
}

/**
 * The keys a zod schema allows for the object at `path` of `raw` (for "did you mean" hints), or
 * `undefined` when the schema is not zod or has no fixed keys there.
 */
export function knownKeysAt(schema: unknown, path: readonly PathSegment[], raw: unknown): string[] | undefined {
  let def = unwrap(schema);
  for (let index = 0; def && index < path.length; index++) {
    def = unwrap(step(def, path[index] as PathSegment, valueAt(raw, path.slice(0, index))));
  }
  if (!def) return undefined;
  if (def.type === "object") return Object.keys(def.shape ?? {});
  if (def.type === "union") {
    const keys = objectBranches(def, valueAt(raw, path)).flatMap((branch) => Object.keys(branch.shape ?? {}));
    return keys.length > 0 ? [...new Set(keys)] : undefined;
  }
  return undefined;
}
