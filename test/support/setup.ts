// Preloaded by bun test (bunfig.toml): one place for fast-check's global settings.
import fc from 'fast-check'

const numRuns = Number(process.env.FC_RUNS ?? 100)
fc.configureGlobal({ numRuns })
