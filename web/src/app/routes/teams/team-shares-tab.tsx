import { TeamDicomShares } from '#web/features/shares/components/team-dicom-shares.tsx';

/** The DICOM shares tab of the team page (docs/screens.md#team-dicom-shares). */
export function TeamSharesTab({ teamId }: { teamId: string }) {
  return <TeamDicomShares teamId={teamId} />;
}
