/**
 * The one spelling of an email the service stores and looks up: trimmed and lowercased, since
 * accounts are found by email at first sign-in whatever case the identity provider sends.
 */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}
