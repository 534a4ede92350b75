import { Stack, Text, Timeline } from '@chakra-ui/react';
import type { HistoryEvent } from '#web/features/datasets/api/get-history.ts';
import { formatDateTime } from '#web/lib/format.ts';
import { describeHistoryEvent } from '#web/features/datasets/utils/classification.ts';

export function HistoryList({ events }: { events: HistoryEvent[] }) {
  if (events.length === 0) return <Text color="fg.muted">No history recorded yet.</Text>;
  return (
    <Timeline.Root size="sm" aria-label="History">
      {events.map((e) => (
        <Timeline.Item key={e.id} data-testid="history-event" data-action={e.action}>
          <Timeline.Connector>
            <Timeline.Separator />
            <Timeline.Indicator />
          </Timeline.Connector>
          <Timeline.Content>
            <Stack gap="0">
              <Timeline.Title>{describeHistoryEvent(e)}</Timeline.Title>
              <Timeline.Description>
                {e.actorName} · {formatDateTime(e.at)}
              </Timeline.Description>
            </Stack>
          </Timeline.Content>
        </Timeline.Item>
      ))}
    </Timeline.Root>
  );
}
