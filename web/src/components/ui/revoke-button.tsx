import { Button } from '@chakra-ui/react';

/** The red "Revoke" of a credential's row (an integration, a SCIM token): one action, disabled while another runs. */
export function RevokeButton({ busy, onRevoke }: { busy: boolean; onRevoke(): void }) {
  return (
    <Button size="xs" variant="outline" colorPalette="red" disabled={busy} onClick={onRevoke}>
      Revoke
    </Button>
  );
}
