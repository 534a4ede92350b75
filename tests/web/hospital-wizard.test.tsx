// @vitest-environment jsdom
import '#tests/web/dom-polyfills.ts';
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLAN_LABELS } from '#shared/schemas/api/organisation.ts';
import { system } from '#web/components/ui/provider.tsx';
import { AddHospitalWizard } from '#web/features/hospitals/components/add-hospital-wizard.tsx';
import {
  canAdvance,
  EMPTY_HOSPITAL_DRAFT,
  stepErrors,
  toCreateRequest,
  type HospitalDraft,
} from '#web/features/hospitals/utils/hospital-wizard.ts';

const DETAILS: Partial<HospitalDraft> = {
  name: 'Riverside Clinic',
  email: 'contact@riverside.example',
  phone: '+1 555 0100 200',
  addressLine1: '1 River Road',
  city: 'Springfield',
  state: 'IL',
};
const ADMIN: Partial<HospitalDraft> = {
  adminFirstName: 'Ada',
  adminLastName: 'Byron',
  adminEmail: 'ada@riverside.example',
};

afterEach(cleanup);

describe('Add Hospital step gating', () => {
  it('keeps step 1 closed until the six required fields are valid, with the record messages', () => {
    // Prepare
    const draft = { ...EMPTY_HOSPITAL_DRAFT, ...DETAILS, email: 'nope', phone: '123', name: 'R' };
    // Act
    const errors = stepErrors(0, draft);
    // Assess
    expect(canAdvance(0, EMPTY_HOSPITAL_DRAFT)).toBe(false);
    expect(errors.name).toBe('Hospital name must be at least 2 characters');
    expect(errors.email).toBe('Invalid email address');
    expect(errors.phone).toBe('Phone number must be at least 10 digits');
    expect(canAdvance(0, { ...EMPTY_HOSPITAL_DRAFT, ...DETAILS })).toBe(true);
  });

  it('has Pro chosen on step 2 and needs the admin names and e-mail on step 3', () => {
    // Prepare
    const draft = { ...EMPTY_HOSPITAL_DRAFT, ...DETAILS };
    // Act
    const adminMissing = canAdvance(2, draft);
    const adminGiven = canAdvance(2, { ...draft, ...ADMIN });
    // Assess
    expect(canAdvance(1, draft)).toBe(true);
    expect(draft.subscriptionPlan).toBe('PRO');
    expect(adminMissing).toBe(false);
    expect(adminGiven).toBe(true);
    expect(toCreateRequest({ ...draft, ...ADMIN })).toMatchObject({
      name: 'Riverside Clinic',
      country: 'US',
      timezone: 'America/New_York',
      subscriptionPlan: 'PRO',
      adminEmail: 'ada@riverside.example',
    });
  });
});

function fill(name: string, value: string) {
  const input = document.querySelector(`input[name="${name}"]`);
  if (!input) throw new Error(`no input ${name}`);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('Add New Hospital wizard', () => {
  it('enables Next only for a valid step, shows the plan prices, submits, closes and resets', async () => {
    // Prepare
    const onCreate = vi.fn(async () => {});
    const onClose = vi.fn();
    const view = render(
      <ChakraProvider value={system}>
        <AddHospitalWizard open onClose={onClose} onCreate={onCreate} />
      </ChakraProvider>,
    );
    const next = () => screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;

    // Act
    const disabledAtStart = next().disabled;
    fill('email', 'not-an-email');
    const emailMessage = await screen.findByText('Invalid email address');
    for (const [key, value] of Object.entries(DETAILS)) fill(key, value as string);
    await waitFor(() => expect(next().disabled).toBe(false));
    fireEvent.click(next());
    const prices = Object.values(PLAN_LABELS).map((p) => screen.queryByText(p.price) !== null);
    fireEvent.click(next());
    const createDisabled = (screen.getByRole('button', { name: 'Create Hospital' }) as HTMLButtonElement).disabled;
    for (const [key, value] of Object.entries(ADMIN)) fill(key, value as string);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Create Hospital' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create Hospital' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    view.rerender(
      <ChakraProvider value={system}>
        <AddHospitalWizard open onClose={onClose} onCreate={onCreate} />
      </ChakraProvider>,
    );

    // Assess
    expect(disabledAtStart).toBe(true);
    expect(emailMessage).toBeTruthy();
    expect(prices).toEqual([true, true, true, true]);
    expect(createDisabled).toBe(true);
    expect(onCreate).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Riverside Clinic', subscriptionPlan: 'PRO', adminFirstName: 'Ada' }),
    );
    expect((document.querySelector('input[name="name"]') as HTMLInputElement).value).toBe('');
  });
});
