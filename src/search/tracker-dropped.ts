/** The message the front thread broadcasts to the search workers when a tracker's index is dropped. */
export interface TrackerDropped {
  kind: 'trackerDropped'
  trackerId: string
  /**
   * The newest generation published of the dropped index (0: it had none). A task still carrying
   * one of these generations (queued before the drop, or resent in full after INDEX_UNKNOWN) must
   * not register it again: for a removed tracker nothing would ever replace it.
   */
  throughGeneration: number
}

export function trackerDropped(trackerId: string, throughGeneration: number): TrackerDropped {
  return { kind: 'trackerDropped', trackerId, throughGeneration }
}

export function isTrackerDropped(message: unknown): message is TrackerDropped {
  const m = message as Partial<TrackerDropped> | null
  return m !== null && typeof m === 'object' && m.kind === 'trackerDropped' && typeof m.trackerId === 'string' && typeof m.throughGeneration === 'number'
}
