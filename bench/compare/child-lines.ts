// A child process's stdout read line by line as it arrives (the Lucene and PostgreSQL drivers
// print one JSON line or timing line per answer).

/** Calls `take` with every line of `stream`, the last one even without a final newline. */
export async function forEachLine(stream: ReadableStream<Uint8Array>, take: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder()
  let pending = ''
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true })
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    lines.forEach(take)
  }
  take(pending + decoder.decode())
}
