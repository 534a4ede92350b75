import { Box, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { LuCopy, LuTrash2 } from 'react-icons/lu';
import { INVITABLE_ROLE_INFO, INVITABLE_ROLES, type BulkRowInput } from '#shared/schemas/api/invitations.ts';
import type { Department, Team } from '#shared/schemas/api/organisation.ts';
import { Select } from '#web/components/ui/select.tsx';
import { departmentOptions, teamOptions, type BulkRow } from '#web/features/invitations/utils/bulk-rows.ts';

type Props = {
  rows: BulkRow[];
  /** Each row's messages, by position, once shown. */
  errors: string[][] | undefined;
  departments: Department[];
  teams: Team[];
  onUpdate(id: number, patch: Partial<BulkRowInput>): void;
  onDuplicate(id: number): void;
  onRemove(id: number): void;
};

/**
 * The invitations about to be sent, one editable row each (typed in, or read from the CSV to check before sending),
 * with the row's messages under it. A row's team is chosen among its department's teams.
 */
export function BulkRowsTable({ rows, errors, departments, teams, onUpdate, onDuplicate, onRemove }: Props) {
  return (
    <Stack gap="3" maxH="24rem" overflowY="auto" pr="1" aria-label="Invitation rows">
      <HStack gap="2" fontSize="sm" fontWeight="medium" color="fg.muted">
        <Text flex="2">Full Name*</Text>
        <Text flex="2">Email Address*</Text>
        <Text flex="1.5">Role*</Text>
        <Text flex="1.5">Department</Text>
        <Text flex="1.5">Team</Text>
        <Box w="20" />
      </HStack>
      {rows.map((row, index) => (
        <Stack key={row.id} gap="1" data-testid="bulk-row">
          <HStack gap="2" align="start">
            <Input
              flex="2"
              size="sm"
              aria-label={`Full name, row ${index + 1}`}
              value={row.fullName}
              onChange={(e) => onUpdate(row.id, { fullName: e.target.value })}
            />
            <Input
              flex="2"
              size="sm"
              type="email"
              aria-label={`Email address, row ${index + 1}`}
              value={row.email}
              onChange={(e) => onUpdate(row.id, { email: e.target.value })}
            />
            <Box flex="1.5">
              <Select
                size="sm"
                aria-label={`Role, row ${index + 1}`}
                value={row.role}
                placeholder="Select role"
                options={INVITABLE_ROLES.map((r) => ({ value: r, label: INVITABLE_ROLE_INFO[r].label }))}
                onChange={(role) => onUpdate(row.id, { role })}
              />
            </Box>
            <Box flex="1.5">
              <Select
                size="sm"
                aria-label={`Department, row ${index + 1}`}
                value={row.department}
                placeholder="None"
                options={departmentOptions(departments, row.department)}
                onChange={(department) => onUpdate(row.id, { department, team: '' })}
              />
            </Box>
            <Box flex="1.5">
              <Select
                size="sm"
                aria-label={`Team, row ${index + 1}`}
                value={row.team}
                placeholder="None"
                disabled={!row.department}
                options={teamOptions(teams, row)}
                onChange={(team) => onUpdate(row.id, { team })}
              />
            </Box>
            <HStack w="20" gap="1">
              <IconButton
                size="sm"
                variant="ghost"
                aria-label={`Duplicate row ${index + 1}`}
                onClick={() => onDuplicate(row.id)}
              >
                <LuCopy />
              </IconButton>
              {rows.length > 1 && (
                <IconButton
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove row ${index + 1}`}
                  onClick={() => onRemove(row.id)}
                >
                  <LuTrash2 />
                </IconButton>
              )}
            </HStack>
          </HStack>
          {(errors?.[index] ?? []).map((message) => (
            <Text key={message} fontSize="xs" color="fg.error">
              {message}
            </Text>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
