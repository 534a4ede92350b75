/**
 * The DICOM listener's container entry (docs/dicom-intake.md#dicom-nodes): the C-STORE SCP on DICOM_PORT with the
 * server's ports built from the environment, as a Lambda builds them. Stops on SIGTERM (a Fargate task's stop).
 */
import { getDeps } from '#functions/lib/deps.ts';
import { logger } from '#functions/lib/logger.ts';
import { ENV } from '#shared/definitions/env.ts';
import { createListener } from './server.ts';

const port = Number(process.env[ENV.DICOM_PORT] ?? '11112');
const listener = createListener({ port, deps: getDeps, log: (line) => logger.info(line) });
// A container that cannot take its port is of no use: exit, and the service starts another task.
if (!(await listener.listen())) process.exit(1);
logger.info('DICOM listener started', { port });
process.on('SIGTERM', () => {
  listener.close();
  process.exit(0);
});
