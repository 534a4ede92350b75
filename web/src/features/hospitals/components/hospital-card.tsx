import { Badge, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { LuPencil, LuRotateCcw, LuTrash2, LuUsers } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import type { Hospital } from '#shared/schemas/api/organisation.ts';
import { formatDate } from '#web/lib/format.ts';
import { paths } from '#web/config/paths.ts';

const PLAN_COLORS = { TRIAL: 'gray', BASIC: 'blue', PRO: 'purple', ENTERPRISE: 'orange' } as const;
const PLAN_NAMES = { TRIAL: 'Trial', BASIC: 'Basic', PRO: 'Pro', ENTERPRISE: 'Enterprise' } as const;

type Props = { hospital: Hospital; onEdit(): void; onDelete(): void; onRestore(): void };

/**
 * A hospital card: name, city and state, first specialization ("General Healthcare" when none), plan and subscription
 * state (Trial, else Active; Deactivated once deleted), users, created date, a 2-line description and its actions.
 */
export function HospitalCard({ hospital, onEdit, onDelete, onRestore }: Props) {
  const deactivated = hospital.status === 'DEACTIVATED';
  const place = [hospital.city, hospital.state].filter(Boolean).join(', ');
  return (
    <Card.Root data-testid="hospital-card" opacity={deactivated ? 0.75 : 1}>
      <Card.Body gap="2">
        <HStack justify="space-between" align="start">
          <Stack gap="0">
            <Text fontWeight="semibold">{hospital.name}</Text>
            <Text fontSize="sm" color="fg.muted">
              {place}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {hospital.specialization[0] ?? 'General Healthcare'}
            </Text>
          </Stack>
          <Stack gap="1" align="end">
            <Badge colorPalette={PLAN_COLORS[hospital.subscriptionPlan]}>{PLAN_NAMES[hospital.subscriptionPlan]}</Badge>
            {deactivated ? (
              <Badge colorPalette="red">Deactivated</Badge>
            ) : (
              <Badge colorPalette={hospital.subscriptionPlan === 'TRIAL' ? 'gray' : 'green'} variant="outline">
                {hospital.subscriptionPlan === 'TRIAL' ? 'Trial' : 'Active'}
              </Badge>
            )}
          </Stack>
        </HStack>
        <HStack fontSize="sm" color="fg.muted" gap="4">
          <Text>
            {hospital.userCount} user{hospital.userCount === 1 ? '' : 's'}
          </Text>
          <Text>Created {formatDate(hospital.createdAt)}</Text>
        </HStack>
        <Text fontSize="sm" lineClamp={2} minH="2lh">
          {hospital.description ?? ''}
        </Text>
      </Card.Body>
      <Card.Footer gap="2" flexWrap="wrap">
        <Button size="sm" variant="outline" onClick={onEdit}>
          <LuPencil /> Edit
        </Button>
        {deactivated ? (
          <Button size="sm" variant="outline" colorPalette="green" onClick={onRestore}>
            <LuRotateCcw /> Restore
          </Button>
        ) : (
          <Button size="sm" variant="outline" colorPalette="red" onClick={onDelete}>
            <LuTrash2 /> Delete
          </Button>
        )}
        <Button size="sm" asChild>
          <Link to={`${paths.users.getHref()}?hospitalId=${encodeURIComponent(hospital.id)}`}>
            <LuUsers /> Manage
          </Link>
        </Button>
      </Card.Footer>
    </Card.Root>
  );
}
