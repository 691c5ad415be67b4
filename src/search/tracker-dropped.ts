/** The message the front thread broadcasts to the search workers when a tracker's index is dropped. */
export interface TrackerDropped {
  kind: 'trackerDropped'
  trackerId: string
}

export function trackerDropped(trackerId: string): TrackerDropped {
  return { kind: 'trackerDropped', trackerId }
}

export function isTrackerDropped(message: unknown): message is TrackerDropped {
  const m = message as Partial<TrackerDropped> | null
  return m !== null && typeof m === 'object' && m.kind === 'trackerDropped' && typeof m.trackerId === 'string'
}
