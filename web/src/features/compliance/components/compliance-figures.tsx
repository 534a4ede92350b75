import { Badge, Button, Card, Heading, HStack, List, SimpleGrid, Stack, Stat, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuShieldCheck } from 'react-icons/lu';
import type { Compliance } from '#shared/schemas/api/oversight.ts';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { toaster } from '#web/components/ui/toaster.tsx';
import { errorMessage } from '#web/lib/api-error.ts';
import { formatDateTime } from '#web/lib/format.ts';
import {
  refreshAuditLog,
  startFullVerification,
  useCompliance,
  verifyAuditChain,
} from '#web/features/compliance/api/compliance.ts';
import type { Job } from '#shared/schemas/api/jobs.ts';
import { JobProgress } from '#web/components/ui/job-progress.tsx';
import { fetchAllJobResults, followJob } from '#web/lib/jobs.ts';
import { HIPAA_LABELS, OPTION_LABELS } from '#web/features/compliance/utils/options.ts';
import { fullVerificationSummary, verificationSummary } from '#web/features/compliance/utils/verification.ts';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function Figure({ label, value, help }: { label: string; value: string | number; help?: string }) {
  return (
    <Stat.Root borderWidth="1px" borderRadius="md" p="4">
      <Stat.Label>{label}</Stat.Label>
      <Stat.ValueText>{value}</Stat.ValueText>
      {help && <Stat.HelpText as="dd">{help}</Stat.HelpText>}
    </Stat.Root>
  );
}

function ChainStatus({
  chain,
  onVerify,
  verifying,
  onVerifyFull,
  fullJob,
}: {
  chain: Compliance['auditChain'];
  onVerify(): void;
  verifying: boolean;
  /** The full verification runs as a job (docs/jobs.md); its progress shows while the page follows it. */
  onVerifyFull(): void;
  fullJob: Job | undefined;
}) {
  const fullRunning = fullJob !== undefined && fullJob.status !== 'SUCCEEDED' && fullJob.status !== 'FAILED';
  const last = chain.lastVerification;
  return (
    <Card.Root>
      <Card.Header>
        <HStack justify="space-between" wrap="wrap">
          <Heading size="md">Audit Chain</Heading>
          <HStack>
            <Button size="sm" onClick={onVerify} loading={verifying} loadingText="Verifying...">
              <LuShieldCheck /> Verify now
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={onVerifyFull}
              loading={fullRunning}
              loadingText="Verifying all..."
            >
              Full verification
            </Button>
          </HStack>
        </HStack>
      </Card.Header>
      <Card.Body>
        <Stack gap="2">
          <Text>{plural(chain.events, 'event')} recorded.</Text>
          {last ? (
            <HStack wrap="wrap" data-testid="chain-verification">
              <Badge colorPalette={last.verified ? 'green' : 'red'}>{last.verified ? 'Verified' : 'Broken'}</Badge>
              <Text>
                {last.verified
                  ? `${plural(last.checkedEvents, 'event')} verified at ${formatDateTime(last.at)}`
                  : `Broken at event ${last.brokenAtSeq ?? '?'} (checked ${last.checkedEvents}) at ${formatDateTime(last.at)}`}
              </Text>
            </HStack>
          ) : (
            <Text color="fg.muted">Not verified yet.</Text>
          )}
          {fullJob && <JobProgress job={fullJob} label="Full verification" />}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** Patient shares by status and the HIPAA toggles in force (docs/screens.md#compliance-center). */
export function SharesAndHipaa({ data }: { data: Pick<Compliance, 'patientShares' | 'hipaa'> }) {
  return (
    <>
      <Card.Root>
        <Card.Header>
          <Heading size="md">Patient Shares</Heading>
        </Card.Header>
        <Card.Body>
          <List.Root aria-label="Patient shares by status">
            <List.Item>Active: {data.patientShares.ACTIVE}</List.Item>
            <List.Item>Expired: {data.patientShares.EXPIRED}</List.Item>
            <List.Item>Revoked: {data.patientShares.REVOKED}</List.Item>
            <List.Item>Opens used up: {data.patientShares.EXHAUSTED}</List.Item>
            <List.Item>Waiting for approval: {data.patientShares.PENDING_APPROVAL}</List.Item>
            <List.Item>Refused: {data.patientShares.REFUSED}</List.Item>
          </List.Root>
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Header>
          <Heading size="md">HIPAA Settings</Heading>
        </Card.Header>
        <Card.Body>
          <Stack gap="2" data-testid="hipaa-toggles">
            {[
              ...Object.entries(data.hipaa.toggles).map(([key, on]) => [HIPAA_LABELS[key] ?? key, on] as const),
              ['Two-Factor Authentication', data.hipaa.twoFactorRequired] as const,
            ].map(([label, on]) => (
              <HStack key={label} justify="space-between">
                <Text>{label}</Text>
                <Badge colorPalette={on ? 'green' : 'gray'}>{on ? 'On' : 'Off'}</Badge>
              </HStack>
            ))}
          </Stack>
        </Card.Body>
      </Card.Root>
    </>
  );
}

/** The compliance center's figures, computed by the server from the hospital's data (docs/screens.md#compliance-center). */
export function ComplianceFigures({ hospitalId }: { hospitalId?: string }) {
  const { data, error, isLoading, mutate } = useCompliance(hospitalId);
  const [verifying, setVerifying] = useState(false);
  const [fullJob, setFullJob] = useState<Job>();
  if (isLoading) return <PageSpinner />;
  if (error || !data) return <ErrorBox message={errorMessage(error)} />;
  const d = data.deidentification;
  const retained = Object.entries(d.optionsRetained).filter(([, n]) => n > 0);

  const verify = async () => {
    setVerifying(true);
    try {
      const result = await verifyAuditChain(hospitalId);
      toaster.create(verificationSummary(result));
      await Promise.all([mutate(), refreshAuditLog()]);
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    } finally {
      setVerifying(false);
    }
  };

  const verifyFull = async () => {
    try {
      const accepted = await startFullVerification(hospitalId);
      const ended = await followJob(accepted.job, setFullJob);
      toaster.create(fullVerificationSummary(ended, await fetchAllJobResults(ended.id)));
      await Promise.all([mutate(), refreshAuditLog()]);
    } catch (e) {
      toaster.create({ type: 'error', title: errorMessage(e) });
    }
  };

  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        <Figure
          label="Datasets De-identified"
          value={`${d.deidentified} of ${d.datasets}`}
          help={`${d.notDeidentified} not yet de-identified`}
        />
        <Figure
          label="Series Held for Burned-in Text"
          value={data.burnedInText.seriesHeld}
          help={`${data.burnedInText.datasetsWithHeldSeries} datasets · ${data.burnedInText.seriesReleased} released`}
        />
        <Figure
          label="Active Users"
          value={data.users.byStatus.ACTIVE}
          help={`${data.users.byStatus.INVITED} invited · ${data.users.byStatus.DISABLED} disabled · ${data.users.total} total`}
        />
        <Figure
          label="Users with Two-Factor"
          value={`${data.users.twoFactor} of ${data.users.byStatus.ACTIVE}`}
          help="active users seen signing in with a second factor"
        />
        <Figure
          label="Failed Sign-ins"
          value={data.signIns.failed}
          help={`last ${data.signIns.days} days · ${data.signIns.succeeded} of ${data.signIns.attempts} attempts signed in`}
        />
        <Figure label="Audit Events" value={data.auditChain.events} />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <Card.Root>
          <Card.Header>
            <Heading size="md">De-identification</Heading>
          </Card.Header>
          <Card.Body>
            <Stack gap="3">
              <Text>
                {d.basicProfileOnly} of {d.deidentified} de-identified datasets used the Basic Profile with no retained
                option.
              </Text>
              {retained.length > 0 && (
                <List.Root aria-label="Options kept">
                  {retained.map(([option, n]) => (
                    <List.Item key={option}>
                      {OPTION_LABELS[option] ?? option}: {n}
                    </List.Item>
                  ))}
                </List.Root>
              )}
              <Text color="fg.muted" fontSize="sm">
                Hospital policy: {d.policy.updatedAt ? `set ${formatDateTime(d.policy.updatedAt)}` : 'the defaults'};
                uploaders may change{' '}
                {d.policy.uploaderMayChange.length
                  ? d.policy.uploaderMayChange.map((o) => OPTION_LABELS[o] ?? o).join(', ')
                  : 'no option'}
                .
              </Text>
            </Stack>
          </Card.Body>
        </Card.Root>
        <ChainStatus
          chain={data.auditChain}
          onVerify={verify}
          verifying={verifying}
          onVerifyFull={() => void verifyFull()}
          fullJob={fullJob}
        />
        <SharesAndHipaa data={data} />
      </SimpleGrid>
      <Text color="fg.muted" fontSize="sm">
        Figures computed {formatDateTime(data.generatedAt)}.
      </Text>
    </Stack>
  );
}
