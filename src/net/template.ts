/** Fills `$1`, `$2`… of an English template with its values: the one way errors name their values in words. */
export function fillTemplate(template: string, params: readonly string[]): string {
  return template.replace(/\$(\d)/g, (_, n: string) => params[Number(n) - 1] ?? '');
}
