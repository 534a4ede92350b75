import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import dimse from 'dcmjs-dimse';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { INTAKE_SOP_CLASSES, INTAKE_TRANSFER_SYNTAXES } from '#shared/dicom/intake-classes.ts';
import { checkIntake, intakeLimits, type IntakeLimits } from '#shared/domain/intake/intake-rules.ts';
import { admitAssociation, part10File } from '#shared/domain/intake/listener.ts';
import { FAILURE_REASON, receiveInstance, refusalReason } from '#shared/domain/intake/receive-instance.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';
import { parseProxyV2, PROXY_V2_MAX_BYTES } from './proxy-protocol.ts';

const { Scp } = dimse;
// The library's own log would print peers' values; ours says what it needs (ids and counts).
dimse.log.setLevel('error');
const { CEchoResponse, CStoreResponse } = dimse.responses;
const { Dataset: DimseDataset } = dimse;
const { PresentationContextResult, RejectReason, RejectResult, RejectSource, SopClass, Status } = dimse.constants;

type Dataset = InstanceType<typeof dimse.Dataset>;
type Association = InstanceType<typeof dimse.association.Association>;
type CStoreRequest = InstanceType<typeof dimse.requests.CStoreRequest>;
type CEchoRequest = InstanceType<typeof dimse.requests.CEchoRequest>;
type PresentationContext = InstanceType<typeof dimse.association.PresentationContext>;

export type ListenerOptions = {
  port: number;
  host?: string;
  /** The ports of the server (the container's, built from its environment). */
  deps: () => Promise<ServerDeps>;
  /** One line per association: AE titles, ids and counts only, never DICOM values. */
  log: (line: string) => void;
  /**
   * Every connection opens with a PROXY protocol v2 header (the Network Load Balancer's target group sends one,
   * docs/dicom-intake.md#behind-the-load-balancer): the node's address is the header's source, and a connection
   * without a valid header is closed before any DICOM is read. Off: the socket's peer is the node.
   */
  proxyProtocol?: boolean;
  /** Bytes one association may send in all before it is aborted (A-ABORT); 2 GiB unless set. */
  maxAssociationBytes?: number;
  /** Where instances being received are written (a temp file each); the OS temp folder unless set. */
  spoolDir?: string;
};

/** The per-association byte cap unless configured (docs/dicom-intake.md#limits). */
export const DEFAULT_MAX_ASSOCIATION_BYTES = 2 * 1024 ** 3;
/**
 * The longest PDU the listener reads (PS3.8 9.3.1: a peer keeps its P-DATA-TF PDUs within the maximum length we
 * announce, 256 KiB here; 4 times that leaves room for a long A-ASSOCIATE-RQ): dcmjs-dimse gathers each PDU whole in
 * memory before it reads it, so a longer one is refused by aborting the association rather than buffered.
 */
export const MAX_PDU_BYTES = 1024 ** 2;
/** How long a connection may take to send its PROXY header. */
const PROXY_HEADER_TIMEOUT_MS = 5_000;

/**
 * A C-STORE data set on its way in: written to a temp file as its fragments arrive, never gathered in memory. Past
 * `limit` bytes (the policy's file size) the rest is counted and dropped, and the instance is answered Out of
 * Resources once its last fragment has come (a C-STORE is answered after its data set, PS3.7 9.1.1).
 */
class SpooledInstance extends Writable {
  bytes = 0;
  private readonly file: WriteStream;

  constructor(
    readonly path: string,
    private readonly limit: number,
    /** The PS3.10 preamble and file meta group, written first: the file is the instance as it will be stored. */
    head: Uint8Array,
  ) {
    super();
    this.file = createWriteStream(path, { mode: 0o600 });
    this.bytes = head.byteLength;
    this.file.write(head);
    // A failed write (a full disk) or a discarded instance loses the instance: it is answered Processing failure.
    this.file.on('error', () => {
      this.failed = true;
      this.destroy();
    });
    this.on('error', () => (this.failed = true));
  }

  /** The file could not be written whole: the instance is answered Processing failure (0110). */
  failed = false;

  get oversized(): boolean {
    return this.bytes > this.limit;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.bytes += chunk.length;
    if (this.oversized || this.failed || this.file.destroyed) return callback();
    this.file.write(chunk, () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.file.end(() => callback());
  }

  /** Drops the instance: its file is closed (once opened), then removed. */
  async remove(): Promise<void> {
    this.destroy();
    if (!this.file.closed) await new Promise((resolve) => this.file.once('close', resolve));
    await rm(this.path, { force: true });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file.destroy();
    callback(error);
  }
}

/** Watches a connection's bytes: the per-association cap, and the length of each PDU's header (PS3.8 9.3.1). */
function byteGuard(maxBytes: number, onExceeded: (why: string) => void) {
  let total = 0;
  let header: number[] = [];
  let remaining = 0;
  let tripped = false;
  return (chunk: Buffer) => {
    if (tripped) return;
    total += chunk.length;
    if (total > maxBytes) {
      tripped = true;
      return onExceeded('association byte cap');
    }
    let offset = 0;
    while (offset < chunk.length) {
      if (remaining > 0) {
        const taken = Math.min(remaining, chunk.length - offset);
        remaining -= taken;
        offset += taken;
        continue;
      }
      header.push(chunk[offset++]!);
      if (header.length === 6) {
        const length = ((header[2]! << 24) | (header[3]! << 16) | (header[4]! << 8) | header[5]!) >>> 0;
        header = [];
        if (length > MAX_PDU_BYTES) {
          tripped = true;
          return onExceeded('PDU too long');
        }
        remaining = length;
      }
    }
  };
}

/** C-STORE statuses of PS3.4 B.2.3 for the intake's refusals. */
const STORE_STATUS: Record<number, number> = {
  [FAILURE_REASON.OUT_OF_RESOURCES]: 0xa700,
  [FAILURE_REASON.CANNOT_UNDERSTAND]: 0xc000,
  [FAILURE_REASON.SOP_CLASS_NOT_SUPPORTED]: 0x0122,
  [FAILURE_REASON.DOES_NOT_MATCH]: 0xa900,
  [FAILURE_REASON.PROCESSING_FAILURE]: 0x0110,
};

/**
 * A-ASSOCIATE-RJ reasons of PS3.8 9.3.4 (source: service user), all with result rejected-permanent. A deactivated
 * hospital's node gets "no reason given": the association is refused before any data set is sent (rather than a
 * failure status on every C-STORE, PS3.7 9.1.1, which the sender would only retry instance by instance), and
 * "permanent" tells it not to retry the association as it would after a transient one (docs/dicom-intake.md#deactivation).
 */
const REJECT_REASON = {
  CALLED_AE_NOT_RECOGNIZED: RejectReason.CalledAeNotRecognized,
  CALLING_AE_NOT_RECOGNIZED: RejectReason.CallingAeNotRecognized,
  HOSPITAL_DEACTIVATED: RejectReason.NoReasonGiven,
} as const;

/**
 * The C-STORE SCP (docs/dicom-intake.md#dicom-nodes): one instance per association. It accepts an association from an
 * active DICOM node calling our AE title from an allowed address (the PROXY header's source behind the balancer), with
 * the storage SOP classes and transfer syntaxes the engine reads (and Verification, for C-ECHO); every instance takes
 * the STOW-RS intake path and its rules. Each data set is written to a temp file as it arrives (never gathered in
 * memory), then kept as the bytes received behind a file meta group naming its transfer syntax; an association past
 * its byte cap is aborted; an association cut short stores nothing of the instance in flight. Each association is
 * audited with its counts.
 */
export function createListener(options: ListenerOptions) {
  const raw = new WeakMap<Dataset, { spool: SpooledInstance }>();
  const spoolDir = options.spoolDir ?? tmpdir();
  const maxAssociationBytes = options.maxAssociationBytes ?? DEFAULT_MAX_ASSOCIATION_BYTES;
  /** Work started by a connection (admission, a store, the closing audit): close() waits for it, so none outlives the deps. */
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): void => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  class IntakeScp extends Scp {
    private integration: IntegrationRecord | undefined;
    /** The intake rules' limits, read when the association is accepted and moved as instances are stored. */
    private limits: IntakeLimits | undefined;
    private counts = { stored: 0, failed: 0 };
    private audited = false;
    private readonly spools = new Set<SpooledInstance>();
    /** Past its byte cap: nothing more of it is stored, even what the library had already read. */
    private aborted = false;

    constructor(
      socket: Socket,
      opts: ConstructorParameters<typeof Scp>[1],
      private readonly peer: string,
    ) {
      super(socket, opts);
      socket.on(
        'data',
        byteGuard(maxAssociationBytes, (why) => {
          this.aborted = true;
          options.log(`DICOM association aborted (${why})${this.integration ? ` ${this.integration.id}` : ''}`);
          // A-ABORT, source service-user, reason not significant (PS3.8 9.3.8), then the connection goes.
          if ((this as unknown as { association?: Association }).association) this.sendAbort(0, 0);
          socket.end();
          setTimeout(() => socket.destroy(), 1_000).unref();
        }),
      );
      socket.once('close', () => {
        for (const spool of this.spools) track(this.discard(spool));
        track(this.finish('CLOSED'));
      });
    }

    private async discard(spool: SpooledInstance): Promise<void> {
      this.spools.delete(spool);
      await spool.remove();
    }

    override associationRequested(association: Association): void {
      track(
        (async () => {
          try {
            const decision = await admitAssociation(
              {
                callingAeTitle: association.getCallingAeTitle(),
                calledAeTitle: association.getCalledAeTitle(),
                peerAddress: this.peer,
              },
              await options.deps(),
            );
            if (!decision.accept) {
              // A node of a deactivated hospital is named by its ids (never its AE title); an unknown one has none.
              const who =
                'integration' in decision ? ` ${decision.integration.hospitalId}/${decision.integration.id}` : '';
              options.log(`DICOM association refused (${decision.reason})${who}`);
              this.sendAssociationReject(
                RejectResult.Permanent,
                RejectSource.ServiceUser,
                REJECT_REASON[decision.reason],
              );
              return;
            }
            this.limits = await intakeLimits(decision.integration, await options.deps());
            this.integration = decision.integration;
            for (const c of association.getPresentationContexts()) {
              const context: PresentationContext = association.getPresentationContext(c.id);
              const abstract = context.getAbstractSyntaxUid();
              if (abstract !== SopClass.Verification && !INTAKE_SOP_CLASSES.has(abstract)) {
                context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
                continue;
              }
              const offered = context.getTransferSyntaxUids();
              const chosen = INTAKE_TRANSFER_SYNTAXES.find((syntax) => offered.includes(syntax));
              if (chosen) context.setResult(PresentationContextResult.Accept, chosen);
              else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
            }
            this.sendAssociationAccept();
          } catch {
            options.log('DICOM association refused (lookup failed)');
            this.sendAssociationReject(RejectResult.Transient, RejectSource.ServiceUser, RejectReason.NoReasonGiven);
          }
        })(),
      );
    }

    /** The data set of a C-STORE goes to a temp file, fragment by fragment (the library's hook for this). */
    override createStoreWritableStream(context: PresentationContext, request: CStoreRequest): Writable {
      const limit = this.limits?.maxFileBytes ?? 0;
      // The file meta group is known before the data set (the request's UIDs, the context's transfer syntax), so the
      // spool holds the PS3.10 file itself and is read once, without a copy to put the two together.
      const head = part10File(
        {
          sopClassUID: request.getAffectedSopClassUid(),
          sopInstanceUID: request.getAffectedSopInstanceUid(),
          transferSyntaxUID: context.getAcceptedTransferSyntaxUid() ?? '',
          sourceAeTitle: this.integration?.aeTitle ?? '',
        },
        new Uint8Array(0),
      );
      const spool = new SpooledInstance(join(spoolDir, `iws-cstore-${randomUUID()}`), limit, head);
      this.spools.add(spool);
      return spool;
    }

    override createDatasetFromStoreWritableStream(
      writable: Parameters<InstanceType<typeof Scp>['createDatasetFromStoreWritableStream']>[0],
      context: PresentationContext,
      callback: (dataset: Dataset) => void,
    ): void {
      const spool = writable as SpooledInstance;
      const done = () => {
        // The data set stays in its file; the request carries an empty one that names it.
        const dataset = new DimseDataset();
        raw.set(dataset, { spool });
        callback(dataset);
      };
      // The library ends the stream and asks for the data set at once: the file is complete once it has finished
      // (or lost, if it failed: the request is answered all the same).
      if (spool.writableFinished || spool.destroyed) done();
      else {
        let called = false;
        const once = () => {
          if (!called) done();
          called = true;
        };
        spool.once('finish', once);
        spool.once('close', once);
      }
    }

    override cEchoRequest(request: CEchoRequest, callback: (response: InstanceType<typeof CEchoResponse>) => void) {
      const response = CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      callback(response);
    }

    override cStoreRequest(request: CStoreRequest, callback: (response: InstanceType<typeof CStoreResponse>) => void) {
      track(
        (async () => {
          const response = CStoreResponse.fromRequest(request);
          const dataset = request.getDataset();
          const received = dataset ? raw.get(dataset) : undefined;
          try {
            if (!this.integration || !this.limits || !received || received.spool.failed || this.aborted)
              throw new Error('No data set');
            // The intake rules on the size before the file is read: over the policy's file size or the hospital's
            // storage cap (counting what is being received) is Out of Resources (PS3.4 B.2.3, A7xx).
            const refused = received.spool.oversized
              ? 'FILE_TOO_LARGE'
              : checkIntake([received.spool.bytes], this.limits);
            if (refused === 'FILE_TOO_LARGE' || refused === 'STORAGE_CAP_EXCEEDED') {
              this.counts.failed++;
              response.setStatus(STORE_STATUS[refusalReason(refused)] ?? 0x0110);
            } else {
              const bytes = await readFile(received.spool.path);
              const file = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
              const result = await receiveInstance(
                file,
                { integration: this.integration, via: 'C_STORE' },
                await options.deps(),
                { limits: this.limits },
              );
              if (result.stored) {
                this.counts.stored++;
                this.limits.usedBytes += file.byteLength;
              } else this.counts.failed++;
              response.setStatus(result.stored ? Status.Success : (STORE_STATUS[result.reason] ?? 0x0110));
            }
          } catch {
            this.counts.failed++;
            response.setStatus(0x0110);
          } finally {
            if (received) await this.discard(received.spool);
          }
          callback(response);
        })(),
      );
    }

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
      track(this.finish('RELEASED'));
    }

    private async finish(end: 'RELEASED' | 'CLOSED'): Promise<void> {
      if (this.audited || !this.integration) return;
      this.audited = true;
      const integration = this.integration;
      options.log(
        `DICOM association of ${integration.id} ${end.toLowerCase()}: ${this.counts.stored} stored, ${this.counts.failed} failed`,
      );
      try {
        const deps = await options.deps();
        await deps.integrations.touch(integration.hospitalId, integration.id, deps.clock.now());
        await deps.audit.record({
          hospitalId: integration.hospitalId,
          action: 'DICOM_ASSOCIATION',
          outcome: this.counts.failed > 0 && this.counts.stored === 0 ? 'FAILURE' : 'SUCCESS',
          actorUserId: integration.id,
          actorName: integration.name,
          details: { integrationId: integration.id, via: 'C_STORE', end, ...this.counts },
        });
      } catch {
        options.log(`DICOM association of ${integration.id}: audit failed`);
      }
    }
  }

  const scpOptions = { associationTimeout: 30_000, pduTimeout: 30_000 };
  const sockets = new Set<Socket>();

  /** Starts the DICOM upper layer on a connection whose node is at `peer`, the bytes after a PROXY header first. */
  function serve(socket: Socket, peer: string, rest?: Buffer): void {
    socket.pause();
    if (rest && rest.length > 0) socket.unshift(rest);
    const scp = new IntakeScp(socket, scpOptions, peer);
    // What dcmjs-dimse's Server does for each connection it accepts.
    (scp as unknown as { connected: boolean }).connected = true;
    scp.on('networkError', () => socket.end());
    socket.resume();
  }

  /**
   * Behind the balancer: the PROXY v2 header first (PROXY protocol 2.2), then DICOM. A connection that sends anything
   * else, too much, or nothing in time is closed unread; the balancer's own connections (LOCAL: its health checks)
   * carry no client, and no node is admitted from them.
   */
  function readProxyHeader(socket: Socket): void {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), PROXY_HEADER_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const header = parseProxyV2(buffered);
      if (header.state === 'incomplete' && buffered.length <= PROXY_V2_MAX_BYTES) return;
      socket.off('data', onData);
      clearTimeout(timer);
      if (header.state !== 'complete') {
        options.log('DICOM connection refused (no PROXY protocol header)');
        socket.destroy();
        return;
      }
      serve(socket, header.source?.address ?? '', buffered.subarray(header.length));
    };
    socket.on('data', onData);
  }

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (options.proxyProtocol) readProxyHeader(socket);
    else serve(socket, socket.remoteAddress ?? '');
  });
  let listening = false;
  return {
    /** Binds the port: true once listening, false when it cannot (a port in use), said in one log line. */
    listen(): Promise<boolean> {
      return new Promise((resolve) => {
        server.once('listening', () => {
          listening = true;
          resolve(true);
        });
        server.on('error', (error: NodeJS.ErrnoException) => {
          if (!listening) {
            options.log(
              `DICOM listener: port ${options.port} cannot be used (${error.code ?? 'error'}); C-STORE is off`,
            );
            resolve(false);
          } else options.log('DICOM listener: network error');
        });
        server.listen(options.port, options.host);
      });
    },
    /** Stops accepting, drops open connections, then waits for the work they started (their audit included). */
    async close(): Promise<void> {
      server.close();
      for (const socket of sockets) socket.destroy();
      // A destroyed socket's 'close' (and the audit it starts) comes on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
