/**
 * The wizard's file discovery in a dedicated worker (docs/domain.md#uploads): reading thousands of headers leaves
 * garbage (buffers, streams, parser objects) that the browser collects late, and the page would carry it into the
 * upload; a worker's memory is all given back when the page ends it after the discovery.
 */
import { discoverFiles } from '#web/features/uploads/utils/discover-files.ts';
import type { DiscoveryRequest, DiscoveryMessage } from '#web/features/uploads/utils/discover-files.ts';

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<DiscoveryRequest>) => void) | null;
  postMessage(message: DiscoveryMessage): void;
};

scope.onmessage = (event) => {
  const { picked, pauseMs } = event.data;
  discoverFiles(picked, {
    pauseMs,
    onProgress: (done, total) => scope.postMessage({ progress: { done, total } }),
  }).then(
    (discovery) => scope.postMessage({ discovery }),
    (error: unknown) => scope.postMessage({ failed: error instanceof Error ? error.message : String(error) }),
  );
};
