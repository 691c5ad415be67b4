/**
 * Device class from a User-Agent string: `mobile`, `tablet` or `desktop`, the three classes a
 * segment (reporting `segment_id`) can match on. Deliberately coarse: tablets are told apart by
 * their well-known markers, phones by "Mobi"/iPhone/Android phone markers, everything else is a
 * desktop. Null when there is no User-Agent at all (a backend sender), so no class is invented.
 */
export type DeviceClass = 'mobile' | 'tablet' | 'desktop'

const TABLET = /ipad|tablet|kindle|silk\/|playbook|nexus (7|9|10)|sm-t\d|(android(?!.*mobile))/i
const MOBILE = /mobi|iphone|ipod|android.*mobile|windows phone|blackberry|bb10|opera mini|iemobile/i

export function deviceClass(userAgent: string | null | undefined): DeviceClass | null {
  if (userAgent === null || userAgent === undefined || userAgent.trim() === '') return null
  if (TABLET.test(userAgent)) return 'tablet'
  if (MOBILE.test(userAgent)) return 'mobile'
  return 'desktop'
}
