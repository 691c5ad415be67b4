/**
 * Process entry: loadConfig → startSift → banner; SIGINT/SIGTERM stop gracefully.
 */
import { ConfigError, loadConfig } from './config/config.ts'
import { startSift } from './service.ts'
import { createLogger } from './shared/log.ts'

function banner(url: string, demo: { trackerId: string; privateKey: string } | null): string {
  const lines = [``, `Sift is running at ${url}`, ``]
  if (demo) {
    lines.push(
      `Demo tracker id:  ${demo.trackerId}`,
      `Demo private key: ${demo.privateKey}   (demo only; set your own trackers with SIFT_TRACKERS or 'npm run sift -- trackers add')`,
      ``,
      `Try:`,
      `  curl -g '${url}/search?tracker_id=${demo.trackerId}&q=iphone&f[]=type:item&facets=brand,price&size=3'`,
      `  curl -g '${url}/search?tracker_id=${demo.trackerId}&q=samsng%20phone&f[]=type:item&sort=price:asc'   (typo corrected)`,
      `  curl '${url}/health'`,
      `  npm run sift -- request GET '/v1/content_export?size=2&hit_fields=title,price' --tracker ${demo.trackerId} --url ${url}`,
      `  npm run sift -- request POST /v1/content --tracker ${demo.trackerId} --url ${url} --data '{"objects":[{"identity":"X1","type":"item","fields":{"title":"Test product","price":9.5}}]}'`,
      ``,
    )
  }
  return lines.join('\n')
}

let config
try {
  config = loadConfig()
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`sift: ${error.message}\n`)
    process.exit(2)
  }
  throw error
}
const logger = createLogger(config.logLevel)
const sift = await startSift(config, logger)
process.stdout.write(banner(sift.url, sift.demo) + '\n')

let stopping = false
async function shutdown(signal: string) {
  if (stopping) return
  stopping = true
  logger.info('stopping', { signal })
  await sift.stop()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown('SIGINT'))
process.on('SIGTERM', () => void shutdown('SIGTERM'))
