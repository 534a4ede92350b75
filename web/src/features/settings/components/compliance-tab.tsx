import { Badge, Heading, HStack } from '@chakra-ui/react';
import { ANONYMIZATION_OPTIONS, type AnonymizationOption } from '#shared/vocabulary/deidentification.ts';
import type { DeidentificationPolicy } from '#shared/schemas/api/hospital-admin.ts';
import { HIPAA_TOGGLES } from '#shared/schemas/api/policies.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { SettingsTab, Toggle, type PolicyTabProps } from './settings-controls.tsx';

const HIPAA_LABELS: Record<(typeof HIPAA_TOGGLES)[number], string> = {
  anonymizeByDefault: 'Anonymize by default',
  hashIds: 'Hash IDs',
  regenerateUIDs: 'Regenerate UIDs',
  removePrivateTags: 'Remove private tags',
};
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

/** Compliance: the HIPAA toggles, then the de-identification defaults and which of them an uploader may change. */
export function ComplianceTab({ policy, system, change, deidentification, onDeidentificationChange }: Props) {
  return (
    <SettingsTab value="compliance">
      <Heading size="md">HIPAA</Heading>
      {HIPAA_TOGGLES.map((toggle) => (
        <Toggle
          key={toggle}
          label={HIPAA_LABELS[toggle]}
          checked={policy.compliance.hipaaToggles[toggle]}
          locked={system.compliance.hipaaToggles[toggle]}
          onChange={(on) =>
            change((p) => ({
              ...p,
              compliance: { ...p.compliance, hipaaToggles: { ...p.compliance.hipaaToggles, [toggle]: on } },
            }))
          }
        />
      ))}
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
