/**
 * The DICOM listener's container entry (docs/dicom-intake.md#dicom-nodes): the C-STORE SCP on DICOM_PORT with the
 * server's ports built from the environment, as a Lambda builds them. Stops on SIGTERM (a Fargate task's stop).
 */
import { getDeps } from '#functions/lib/deps.ts';
import { logger } from '#functions/lib/logger.ts';
import { ENV } from '#shared/env.ts';
import { createListener } from './server.ts';

const port = Number(process.env[ENV.DICOM_PORT] ?? '11112');
const listener = createListener({ port, deps: getDeps, log: (line) => logger.info(line) });
listener.listen();
logger.info('DICOM listener started', { port });
process.on('SIGTERM', () => {
  listener.close();
  process.exit(0);
});
