/**
 * `{ ...base, ...changes }` for records the gateway builds on every turn (its own data only: a
 * `__proto__` key of `base` would set the copy's prototype). On Node 20 an object literal that
 * starts with a spread gets maps V8 does not share, so each property after the spread allocates a
 * map and a descriptor array of its own; those dead maps keep the turn's young garbage alive through
 * scavenges until a full GC. `Object.assign` onto `{}` adds the same properties in the same order
 * through shared maps.
 */
export function copyWith<T extends object, U extends object>(base: T, changes: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, changes);
}
