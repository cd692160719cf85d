/**
 * `target` with some of its methods replaced: the journal's adapters are class instances, whose
 * methods a spread (`{ ...target }`) would drop, so the others are forwarded, bound to `target`.
 */
export function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(original, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(original, property, original);
      return typeof value === 'function' ? value.bind(original) : value;
    },
  });
}
