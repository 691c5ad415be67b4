import { describe, expect, spyOn, test } from 'bun:test'
import { totalmem } from 'node:os'
import { availableMemoryBytes, ConfigError, DEFAULT_CONFIG, loadConfig, parseTrackerList } from '../../../src/config/config.ts'

describe('loadConfig', () => {
  test('defaults when the environment is empty', () => {
    const config = loadConfig({})
    expect(config.port).toBe(8080)
    expect(config.demo).toBe(true)
    expect(config.authMaxSkewSeconds).toBe(5)
    expect(config.writeRatePerMinute).toBe(500)
    expect(config.writeConcurrency).toBe(5)
    expect(config.dataDir).toBe(DEFAULT_CONFIG.dataDir)
    expect(config.dataDir.endsWith('/data')).toBe(true)
    expect(Object.isFrozen(config)).toBe(true)
    // The store is kept in memory up to half of the machine's memory (or of a container's limit).
    expect(config.storePrewarmMegabytes).toBe(Math.floor(availableMemoryBytes() / 2 / 2 ** 20))
    expect(availableMemoryBytes()).toBeLessThanOrEqual(totalmem())
  })

  test('reads every documented variable', () => {
    const config = loadConfig({ PORT: '9000', HOST: '127.0.0.1', SIFT_DATA_DIR: '/tmp/x', SIFT_DEMO: '0', SIFT_TRACKERS: 'a:k1, b:k:2', SIFT_AUTH_MAX_SKEW_S: '30', SIFT_WRITE_RATE_PER_MIN: '10', SIFT_WRITE_CONCURRENCY: '2', SIFT_SQLITE_SYNC: 'NORMAL', SIFT_WORKERS: '3', SIFT_LOG_LEVEL: 'debug' })
    expect(config).toMatchObject({ port: 9000, host: '127.0.0.1', dataDir: '/tmp/x', demo: false, authMaxSkewSeconds: 30, writeRatePerMinute: 10, writeConcurrency: 2, sqliteSync: 'NORMAL', workers: 3, logLevel: 'debug' })
    expect(config.trackers).toEqual([{ id: 'a', privateKey: 'k1' }, { id: 'b', privateKey: 'k:2' }])
  })

  test('the default prewarm limit follows a container memory limit lower than the machine', () => {
    const limit = spyOn(process, 'constrainedMemory')
    try {
      limit.mockReturnValue(2 ** 30)
      expect(availableMemoryBytes()).toBe(Math.min(2 ** 30, totalmem()))
      // No limit: 0 (Node), or cgroup v1's "unlimited", far above the machine's memory.
      limit.mockReturnValue(0)
      expect(availableMemoryBytes()).toBe(totalmem())
      limit.mockReturnValue(2 ** 62)
      expect(availableMemoryBytes()).toBe(totalmem())
    } finally {
      limit.mockRestore()
    }
  })

  test('bad values are refused with the variable name, never echoing keys', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(new ConfigError('PORT must be an integer from 0 to 65535, got "eighty"'))
    expect(() => loadConfig({ SIFT_SQLITE_SYNC: 'OFF' })).toThrow(ConfigError)
    expect(loadConfig({ SIFT_STORE_PREWARM_MB: '0' }).storePrewarmMegabytes).toBe(0)
    expect(loadConfig({ SIFT_STORE_PREWARM_MB: '512' }).storePrewarmMegabytes).toBe(512)
    expect(() => loadConfig({ SIFT_STORE_PREWARM_MB: 'half' })).toThrow(new ConfigError('SIFT_STORE_PREWARM_MB must be an integer from 0 to 1000000000, got "half"'))
    expect(loadConfig({}).analyticsNice).toBe(10)
    expect(loadConfig({ SIFT_ANALYTICS_NICE: '0' }).analyticsNice).toBe(0)
    expect(() => loadConfig({ SIFT_ANALYTICS_NICE: '20' })).toThrow(new ConfigError('SIFT_ANALYTICS_NICE must be an integer from 0 to 19, got "20"'))
    try {
      parseTrackerList('good:key,secretwithoutcolon')
      throw new Error('expected a ConfigError')
    } catch (error) {
      expect((error as Error).message).toBe('SIFT_TRACKERS entry 2 must look like id:private_key')
      expect((error as Error).message).not.toContain('secretwithoutcolon')
    }
  })
})
