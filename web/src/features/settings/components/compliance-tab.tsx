import { Badge, Heading, HStack, Text } from '@chakra-ui/react';
import {
  ANONYMIZATION_OPTIONS,
  FIXED_HIPAA_TOGGLES,
  HIPAA_TOGGLES,
  type AnonymizationOption,
  type HipaaToggle,
} from '#shared/vocabulary/deidentification.ts';
import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';
import { hipaaTogglesOf, withHipaaToggle } from '#shared/domain/settings/deidentification-policy.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { SettingsTab, Toggle, type PolicyTabProps } from './settings-controls.tsx';

const HIPAA_LABELS: Record<HipaaToggle, string> = {
  anonymizeByDefault: 'Anonymize by default',
  hashIds: 'Hash IDs',
  regenerateUIDs: 'Regenerate UIDs',
  removePrivateTags: 'Remove private tags',
};
const isFixed = (toggle: HipaaToggle): toggle is (typeof FIXED_HIPAA_TOGGLES)[number] =>
  (FIXED_HIPAA_TOGGLES as readonly HipaaToggle[]).includes(toggle);
const DEID_LABELS: Record<AnonymizationOption, string> = {
  retainPhysicianIdentity: 'Keep physician information',
  retainInstitutionIdentity: 'Keep institution information',
  retainUids: 'Keep original UIDs',
  retainLongitudinalDates: 'Keep dates (longitudinal studies)',
  retainPatientCharacteristics: 'Keep patient characteristics',
  keepPrivate: 'Keep safe private attributes',
  keepAllPrivate: 'Keep all private attributes',
  removeAllPrivate: 'Remove all private attributes',
};

type Props = PolicyTabProps & {
  deidentification: DeidentificationPolicy;
  onDeidentificationChange(value: DeidentificationPolicy): void;
};

/**
 * Compliance: the HIPAA switches, then the de-identification defaults and which of them an uploader may change. The
 * switches are the de-identification policy seen another way (docs/domain.md#hipaa-switches): turning one edits the
 * policy's defaults, so both sections always agree; anonymize by default and hash IDs are fixed on.
 */
export function ComplianceTab({ deidentification, onDeidentificationChange }: Props) {
  const toggles = hipaaTogglesOf(deidentification);
  return (
    <SettingsTab value="compliance">
      <Heading size="md">HIPAA</Heading>
      <Text fontSize="sm" color="fg.muted">
        Every upload is de-identified with the defaults below; these switches set them.
      </Text>
      {HIPAA_TOGGLES.map((toggle) =>
        isFixed(toggle) ? (
          <Toggle
            key={toggle}
            label={HIPAA_LABELS[toggle]}
            checked
            disabled
            onChange={() => undefined}
            badge={<Badge>Always on</Badge>}
          />
        ) : (
          <Toggle
            key={toggle}
            label={HIPAA_LABELS[toggle]}
            checked={toggles[toggle]}
            onChange={(on) => onDeidentificationChange(withHipaaToggle(deidentification, toggle, on))}
          />
        ),
      )}
      <Toggle
        label="Block PHI in messages"
        checked
        disabled
        onChange={() => undefined}
        badge={<Badge>Required</Badge>}
      />
      <Heading size="md">De-identification policy</Heading>
      {ANONYMIZATION_OPTIONS.map((option) => (
        <HStack key={option} justify="space-between" wrap="wrap">
          <Toggle
            label={DEID_LABELS[option]}
            checked={deidentification.defaults[option] ?? false}
            onChange={(on) =>
              onDeidentificationChange({
                ...deidentification,
                defaults: { ...deidentification.defaults, [option]: on },
              })
            }
          />
          <Checkbox
            checked={deidentification.uploaderMayChange.includes(option)}
            onCheckedChange={(on) =>
              onDeidentificationChange({
                ...deidentification,
                uploaderMayChange: on
                  ? [...deidentification.uploaderMayChange, option].sort()
                  : deidentification.uploaderMayChange.filter((o) => o !== option),
              })
            }
          >
            Uploader may change
          </Checkbox>
        </HStack>
      ))}
    </SettingsTab>
  );
}
