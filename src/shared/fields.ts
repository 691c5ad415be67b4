/**
 * Field maps come from client JSON, so a field may be named `__proto__`. Plain assignment would set
 * the object's prototype instead of a field; this defines an own property whatever the name.
 */
import type { FieldValue, Fields } from './catalog-object.ts'

export function setField(target: Fields, name: string, value: FieldValue): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
  else target[name] = value
}
