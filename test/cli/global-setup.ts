/**
 * Builds the npm package once (`npm run build:lib`: dist/index.js, dist/index.d.ts,
 * dist/cli.js), as `npm pack` does before packing, so the tests run the real files.
 */
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync('npm', ['run', '--silent', 'build:lib'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
