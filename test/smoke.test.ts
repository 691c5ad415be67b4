import { expect, test } from 'bun:test'
test('runtime is bun', () => { expect(typeof Bun.version).toBe('string') })
