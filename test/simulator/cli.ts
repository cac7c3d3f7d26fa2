/**
 * `npm run simulator [-- --port 8787 --host 127.0.0.1 --token T --file-token F]`
 *
 * Starts the simulator, prints how to reach it and what it is seeded with, and stops
 * on SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { CONTROL_PATHS, SEED_TOKENS, allOrgPaths, orgPath, startSimulator } from '.';

const USAGE = 'usage: npm run simulator -- [--port 8787] [--host 127.0.0.1] [--token <admin token>] [--file-token <file token>]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'file-token': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, not ${values.port}`);

  const sim = await startSimulator({
    port,
    host: values.host,
    ...(values.token === undefined ? {} : { adminToken: values.token }),
    ...(values['file-token'] === undefined ? {} : { fileToken: values['file-token'] }),
  });

  const lines = [
    'Browser isolation service simulator',
    `  url          ${sim.url}`,
    `  launch base  ${sim.launchBase}`,
    `  admin token  ${sim.adminToken}   (org acme)`,
    `  file token   ${sim.fileToken}`,
    `  more tokens  ${SEED_TOKENS.socAdmin} (org acme/soc), ${SEED_TOKENS.globexAdmin} (org globex)`,
    `  faults       ${sim.url}${CONTROL_PATHS.faults}   (GET, POST JSON, DELETE)`,
    '',
    'Orgs:',
    ...allOrgPaths(sim.state).map((path) => `  ${path}`),
    '',
    'Users:',
    ...[...sim.state.users.values()].map((user) => {
      const org = sim.state.orgs.get(user.orgId);
      const licence = user.egressLicence === 'all' ? 'all egress' : `egress: ${user.egressLicence.join(', ') || 'none'}`;
      const flags = [user.is_suspended ? 'suspended' : '', user.catchall ? 'catchall' : ''].filter(Boolean).join(', ');
      return `  ${user.username}  [${org ? orgPath(sim.state, org) : '?'}]  ${licence}${flags ? `  (${flags})` : ''}`;
    }),
    '',
    'Ctrl-C stops it.',
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    sim.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
