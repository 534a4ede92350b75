import type { Socket } from 'node:net';
import dimse from 'dcmjs-dimse';
import type { ServerDeps } from '#functions/lib/server-deps.ts';
import { INTAKE_SOP_CLASSES, INTAKE_TRANSFER_SYNTAXES } from '#shared/dicom/intake-classes.ts';
import { admitAssociation, part10File } from '#shared/domain/intake/listener.ts';
import { FAILURE_REASON, receiveInstance } from '#shared/domain/intake/receive-instance.ts';
import type { IntegrationRecord } from '#shared/domain/integrations/ports.ts';

const { Scp, Server } = dimse;
// The library's own log would print peers' values; ours says what it needs (ids and counts).
dimse.log.setLevel('error');
const { CEchoResponse, CStoreResponse } = dimse.responses;
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
};

/** C-STORE statuses of PS3.4 B.2.3 for the intake's refusals. */
const STORE_STATUS: Record<number, number> = {
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
 * active DICOM node calling our AE title from an allowed address, with the storage SOP classes and transfer syntaxes
 * the engine reads (and Verification, for C-ECHO); every instance takes the STOW-RS intake path. The data set is kept
 * as the bytes received, behind a file meta group naming its transfer syntax; an association cut short stores
 * nothing of the instance in flight. Each association is audited with its counts.
 */
export function createListener(options: ListenerOptions) {
  const raw = new WeakMap<Dataset, { bytes: Uint8Array; transferSyntaxUID: string }>();

  class IntakeScp extends Scp {
    private readonly peer: string;
    private integration: IntegrationRecord | undefined;
    private counts = { stored: 0, failed: 0 };
    private audited = false;

    constructor(socket: Socket, opts?: ConstructorParameters<typeof Scp>[1]) {
      super(socket, opts);
      this.peer = socket.remoteAddress ?? '';
      socket.once('close', () => void this.finish('CLOSED'));
    }

    override associationRequested(association: Association): void {
      void (async () => {
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
      })();
    }

    override createDatasetFromStoreWritableStream(
      writable: Parameters<InstanceType<typeof Scp>['createDatasetFromStoreWritableStream']>[0],
      context: PresentationContext,
      callback: (dataset: Dataset) => void,
    ): void {
      const bytes = (writable as unknown as { toBuffer(): Buffer }).toBuffer();
      super.createDatasetFromStoreWritableStream(writable, context, (dataset) => {
        raw.set(dataset, {
          bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          transferSyntaxUID: context.getAcceptedTransferSyntaxUid() ?? '',
        });
        callback(dataset);
      });
    }

    override cEchoRequest(request: CEchoRequest, callback: (response: InstanceType<typeof CEchoResponse>) => void) {
      const response = CEchoResponse.fromRequest(request);
      response.setStatus(Status.Success);
      callback(response);
    }

    override cStoreRequest(request: CStoreRequest, callback: (response: InstanceType<typeof CStoreResponse>) => void) {
      void (async () => {
        const response = CStoreResponse.fromRequest(request);
        try {
          const dataset = request.getDataset();
          const received = dataset ? raw.get(dataset) : undefined;
          if (!this.integration || !received) throw new Error('No data set');
          const file = part10File(
            {
              sopClassUID: request.getAffectedSopClassUid(),
              sopInstanceUID: request.getAffectedSopInstanceUid(),
              transferSyntaxUID: received.transferSyntaxUID,
              sourceAeTitle: this.integration.aeTitle ?? '',
            },
            received.bytes,
          );
          const result = await receiveInstance(
            file,
            { integration: this.integration, via: 'C_STORE' },
            await options.deps(),
          );
          if (result.stored) this.counts.stored++;
          else this.counts.failed++;
          response.setStatus(result.stored ? Status.Success : (STORE_STATUS[result.reason] ?? 0x0110));
        } catch {
          this.counts.failed++;
          response.setStatus(0x0110);
        }
        callback(response);
      })();
    }

    override associationReleaseRequested(): void {
      this.sendAssociationReleaseResponse();
      void this.finish('RELEASED');
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

  const server = new Server(IntakeScp);
  let listening = false;
  return {
    /** Binds the port: true once listening, false when it cannot (a port in use), said in one log line. */
    listen(): Promise<boolean> {
      return new Promise((resolve) => {
        server.once('listening', () => {
          listening = true;
          resolve(true);
        });
        server.on('networkError', (error: unknown) => {
          const code = (error as NodeJS.ErrnoException | undefined)?.code;
          if (!listening) {
            options.log(`DICOM listener: port ${options.port} cannot be used (${code ?? 'error'}); C-STORE is off`);
            resolve(false);
          } else options.log('DICOM listener: network error');
        });
        server.listen(options.port, { associationTimeout: 30_000, pduTimeout: 30_000 });
      });
    },
    close(): void {
      server.close();
    },
  };
}
