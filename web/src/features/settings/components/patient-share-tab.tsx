import { Badge, HStack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { MAX_OPENS_OPTIONS, SHARE_EXPIRY_OPTIONS, SHARE_SCOPES, type Policy } from '#shared/schemas/api/policies.ts';
import { Checkbox } from '#web/components/ui/checkbox.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { withDownloads } from '#web/lib/policy-edits.ts';
import { lockedShareItems, parseRecipientDomains, withScope } from '#web/features/settings/utils/settings-form.ts';
import { SettingsTab, Toggle, type PolicyTabProps } from './settings-controls.tsx';

const SCOPE_LABELS: Record<(typeof SHARE_SCOPES)[number], string> = {
  viewer_only: 'Viewer only',
  screenshots: 'Screenshots',
  downloads: 'Downloads',
};

/**
 * Patient Share: who a share may go to and whether it waits for approval (docs/domain.md#share-policy), then the
 * defaults of links to patients; what the system maximums lock says "Locked by admin". There is no public sharing
 * switch: every share names its recipient, so no public link exists for one to allow.
 */
export function PatientShareTab({ policy, system, change }: PolicyTabProps) {
  const share = policy.patientShare;
  const [domainsText, setDomainsText] = useState((policy.recipientDomains ?? []).join(', '));
  const locked = lockedShareItems(system);
  const setShare = (fields: Partial<Policy['patientShare']>) =>
    change((p) => ({ ...p, patientShare: { ...p.patientShare, ...fields } }));
  return (
    <SettingsTab value="patient-share">
      <Toggle
        label="Share with external recipients"
        checked={policy.shareWithExternal}
        locked={!system.shareWithExternal}
        onChange={(on) => change((p) => ({ ...p, shareWithExternal: on }))}
      />
      <FormField
        label="Hospital e-mail domains"
        helperText={
          policy.recipientDomains === undefined
            ? "Until you list them, your hospital admins' domains. With external sharing off, patient shares go only to addresses of these domains."
            : 'With external sharing off, patient shares go only to addresses of these domains; none listed, none allowed.'
        }
      >
        <Textarea
          name="recipientDomains"
          rows={2}
          placeholder="hospital.org, clinic.hospital.org"
          value={domainsText}
          onChange={(e) => {
            setDomainsText(e.target.value);
            const domains = parseRecipientDomains(e.target.value);
            change((p) => ({ ...p, recipientDomains: domains }));
          }}
        />
      </FormField>
      <Toggle
        label="Require approval for shares"
        checked={policy.requireApproval}
        locked={system.requireApproval}
        onChange={(on) => change((p) => ({ ...p, requireApproval: on }))}
        badge={
          <Text fontSize="xs" color="fg.muted">
            A team lead or hospital admin approves
          </Text>
        }
      />
      <Toggle
        label="Require OTP"
        checked={share.requireOTP}
        locked={locked.requireOTP}
        onChange={(on) => setShare({ requireOTP: on })}
      />
      <FormField label="Default expiry">
        <Select
          value={String(share.defaultExpiryHours)}
          options={[
            ...SHARE_EXPIRY_OPTIONS.map((o) => ({ value: String(o.hours), label: o.label })),
            ...(SHARE_EXPIRY_OPTIONS.some((o) => o.hours === share.defaultExpiryHours)
              ? []
              : [
                  {
                    value: String(share.defaultExpiryHours),
                    label: `Custom (${share.defaultExpiryHours} h)`,
                  },
                ]),
          ]}
          onChange={(value) => setShare({ defaultExpiryHours: Number(value) })}
        />
      </FormField>
      <FormField label="Max opens">
        <Select
          value={String(share.maxOpens)}
          options={MAX_OPENS_OPTIONS.map((n) => ({
            value: String(n),
            label: n === -1 ? 'Unlimited' : String(n),
          }))}
          onChange={(value) => setShare({ maxOpens: Number(value) })}
        />
      </FormField>
      <Toggle
        label="Watermark"
        checked={share.watermarkEnabled}
        locked={locked.watermarkEnabled}
        onChange={(on) => setShare({ watermarkEnabled: on })}
      />
      <Toggle
        label="Downloads"
        checked={share.downloadsEnabled}
        locked={locked.downloadsEnabled}
        onChange={(on) => change((p) => withDownloads(p, on))}
      />
      <Text fontWeight="medium">Allowed scopes</Text>
      {SHARE_SCOPES.map((scope) => (
        <HStack key={scope}>
          <Checkbox
            checked={share.allowedScopes.includes(scope)}
            disabled={scope === 'downloads' && !share.downloadsEnabled}
            onCheckedChange={(on) => change((p) => withScope(p, scope, on))}
          >
            {SCOPE_LABELS[scope]}
          </Checkbox>
          {scope === 'downloads' && !share.downloadsEnabled && <Badge>Requires Downloads</Badge>}
        </HStack>
      ))}
      <Text color="fg.muted" fontSize="sm">
        Team leads may override share settings only more restrictively than these defaults.
      </Text>
    </SettingsTab>
  );
}
