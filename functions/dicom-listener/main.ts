/**
 * The DICOM listener's container entry (docs/dicom-intake.md#dicom-nodes): the C-STORE SCP on DICOM_PORT with the
 * server's ports built from the environment, as a Lambda builds them; DICOM_PROXY_PROTOCOL, DICOM_MAX_ASSOCIATION_BYTES and
 * DICOM_SPOOL_DIR set how it reads connections and where it writes instances being received. Stops on SIGTERM (a Fargate task's stop).
 */
import { getDeps } from '#functions/lib/deps.ts';
import { logger } from '#functions/lib/logger.ts';
import { ENV } from '#shared/definitions/env.ts';
import { createListener } from './server.ts';

const port = Number(process.env[ENV.DICOM_PORT] ?? '11112');
const maxAssociationBytes = Number(process.env[ENV.DICOM_MAX_ASSOCIATION_BYTES] ?? '');
const listener = createListener({
  port,
  deps: getDeps,
  log: (line) => logger.info(line),
  // Behind the Network Load Balancer, whose target group sends a PROXY v2 header (docs/dicom-intake.md#behind-the-load-balancer).
  proxyProtocol: process.env[ENV.DICOM_PROXY_PROTOCOL] === '1',
  ...(maxAssociationBytes > 0 ? { maxAssociationBytes } : {}),
  ...(process.env[ENV.DICOM_SPOOL_DIR] ? { spoolDir: process.env[ENV.DICOM_SPOOL_DIR] } : {}),
});
// A container that cannot take its port is of no use: exit, and the service starts another task.
if (!(await listener.listen())) process.exit(1);
logger.info('DICOM listener started', { port });
// ECS stops a task with SIGTERM: the associations' audit is written before the process goes.
process.on('SIGTERM', () => {
  void listener.close().finally(() => process.exit(0));
});
