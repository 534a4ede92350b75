import { Heading, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { FormField } from '#web/components/ui/form-field.tsx';
import { useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { AuditLogTable } from '#web/features/compliance/components/audit-log-table.tsx';
import { ComplianceFigures } from '#web/features/compliance/components/compliance-figures.tsx';

/**
 * /compliance and /hospital-admin/compliance (docs/screens.md#compliance-center): figures computed from the hospital's
 * data, the audit chain's verification, and the audit log with search and CSV export. The super admin picks the
 * hospital by its id (their own by default).
 */
export function ComplianceRoute() {
  const { user } = useCurrentUser();
  const [hospitalInput, setHospitalInput] = useState('');
  const [hospitalId, setHospitalId] = useState<string>();
  return (
    <Stack gap="6">
      <Stack gap="1">
        <Heading size="2xl">Compliance Center</Heading>
        <Text color="fg.muted">De-identification, held series, users and a tamper-evident audit trail.</Text>
      </Stack>
      {user.role === 'SUPER_ADMIN' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setHospitalId(hospitalInput.trim() || undefined);
          }}
        >
          <HStack align="end" maxW="md">
            <FormField label="Hospital ID">
              <Input size="sm" value={hospitalInput} onChange={(e) => setHospitalInput(e.currentTarget.value)} />
            </FormField>
          </HStack>
        </form>
      )}
      <ComplianceFigures key={hospitalId ?? ''} hospitalId={hospitalId} />
      <AuditLogTable key={`log-${hospitalId ?? ''}`} hospitalId={hospitalId} />
    </Stack>
  );
}
