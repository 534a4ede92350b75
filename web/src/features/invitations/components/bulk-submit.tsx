import { Badge, Box, Button, HStack } from '@chakra-ui/react';

/** The result of Validate All or of a send: how many rows are valid, have errors, repeat an address. */
export function BulkSummary({ summary }: { summary: { valid: number; errors: number; duplicates: number } }) {
  return (
    <HStack gap="2" data-testid="bulk-summary">
      <Badge colorPalette="green">Valid: {summary.valid}</Badge>
      <Badge colorPalette="red">Errors: {summary.errors}</Badge>
      <Badge colorPalette="orange">Duplicates: {summary.duplicates}</Badge>
    </HStack>
  );
}

type ActionsProps = {
  validCount: number;
  /** Send waits until no row has errors. */
  anyErrors: boolean;
  busy: boolean;
  onAddRow(): void;
  onDownloadTemplate(): void;
  onClearAll(): void;
  onValidate(): void;
  onSend(): void;
};

/** The row tools, Validate All, and Send N Invites. */
export function BulkActions(props: ActionsProps) {
  return (
    <HStack wrap="wrap" gap="2">
      <Button size="sm" variant="outline" onClick={props.onAddRow}>
        Add Row
      </Button>
      <Button size="sm" variant="outline" onClick={props.onDownloadTemplate}>
        Download Template
      </Button>
      <Button size="sm" variant="outline" onClick={props.onClearAll}>
        Clear All
      </Button>
      <Button size="sm" variant="outline" onClick={props.onValidate}>
        Validate All
      </Button>
      <Box flex="1" />
      <Button
        size="sm"
        onClick={props.onSend}
        loading={props.busy}
        loadingText="Sending..."
        disabled={props.busy || props.validCount === 0 || props.anyErrors}
      >
        Send {props.validCount} Invites
      </Button>
    </HStack>
  );
}
