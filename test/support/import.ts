/**
 * The service and launch URLs an exported settings file names, as the options page's
 * preview shows them: what an analyst who read the preview confirms with Apply.
 */
export function seenConnection(json: string): { serviceUrl: string; launchUrl: string } {
  let settings: unknown;
  try {
    settings = (JSON.parse(json) as { settings?: unknown } | null)?.settings;
  } catch {
    settings = undefined;
  }
  const values = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : {};
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { serviceUrl: text(values['serviceUrl']), launchUrl: text(values['launchUrl']) };
}
