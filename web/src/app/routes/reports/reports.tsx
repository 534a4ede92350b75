import { Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { REPORT_RANGES } from '#shared/schemas/api/oversight.ts';
import { FormField } from '#web/components/ui/form-field.tsx';
import { ErrorBox, PageSpinner } from '#web/components/ui/page-states.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { useReports } from '#web/features/reports/api/reports.ts';
import { ReportsView } from '#web/features/reports/components/reports-view.tsx';
import { errorMessage } from '#web/lib/api-error.ts';

/**
 * /reports (docs/screens.md#reports): the hospital's studies over the last 3, 6 or 12 months, computed by the server.
 * The super admin picks the hospital by its id (their own by default).
 */
export function ReportsRoute() {
  const { user, hospital } = useCurrentUser();
  const [months, setMonths] = useState<number>(REPORT_RANGES[0]);
  const [hospitalInput, setHospitalInput] = useState('');
  const [hospitalId, setHospitalId] = useState<string>();
  const { data, error, isLoading } = useReports(months, hospitalId);
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">Reports</Heading>
        <Text color="fg.muted">Studies, processing times, storage growth and active users.</Text>
      </Stack>
      <HStack align="end" wrap="wrap" gap="4">
        <FormField label="Period">
          <Select
            aria-label="Period"
            width="12rem"
            value={String(months)}
            onChange={(v) => setMonths(Number(v))}
            options={REPORT_RANGES.map((m) => ({ value: String(m), label: `Last ${m} months` }))}
          />
        </FormField>
        {user.role === 'SUPER_ADMIN' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setHospitalId(hospitalInput.trim() || undefined);
            }}
          >
            <FormField label="Hospital ID">
              <Input value={hospitalInput} onChange={(e) => setHospitalInput(e.currentTarget.value)} />
            </FormField>
          </form>
        )}
      </HStack>
      {isLoading ? (
        <PageSpinner />
      ) : error || !data ? (
        <ErrorBox message={errorMessage(error)} />
      ) : (
        <ReportsView report={data} hospitalName={hospitalId ?? hospital?.name ?? data.hospitalId} />
      )}
    </Stack>
  );
}
