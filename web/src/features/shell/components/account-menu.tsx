import { Avatar, Box, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { LuLogOut, LuSettings, LuShieldCheck } from 'react-icons/lu';
import { Link } from 'react-router-dom';
import { ROLE_TITLES, type Role } from '#shared/vocabulary/roles.ts';
import { paths } from '#web/config/paths.ts';

type Props = { firstName: string; lastName: string; role: Role; onSignOut(): void };

/**
 * The user's name and role in the top bar, opening their account menu: Account security (two-factor), Settings, the
 * terms and privacy pages and Sign out (docs/screens.md#authenticated-shell). Every layout of the shell has it, the
 * hospital-admin area included.
 */
export function AccountMenu({ firstName, lastName, role, onSignOut }: Props) {
  const initials = `${firstName[0] ?? ''}${lastName[0] ?? ''}`.toUpperCase();
  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="1" h="auto" py="1">
          <Avatar.Root size="sm" colorPalette="blue">
            <Avatar.Fallback>{initials}</Avatar.Fallback>
          </Avatar.Root>
          <Box hideBelow="md" lineHeight="short" textAlign="start">
            <Text fontSize="sm" fontWeight="medium" data-testid="user-full-name">
              {firstName} {lastName}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {ROLE_TITLES[role]}
            </Text>
          </Box>
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="56">
            <Menu.Item value="security" asChild>
              <Link to={paths.accountSecurity.getHref()}>
                <LuShieldCheck aria-hidden /> Account security
              </Link>
            </Menu.Item>
            <Menu.Item value="settings" asChild>
              <Link to={paths.settings.getHref()}>
                <LuSettings aria-hidden /> Settings
              </Link>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="terms" asChild>
              <Link to={paths.terms.getHref()}>Terms of Service</Link>
            </Menu.Item>
            <Menu.Item value="privacy" asChild>
              <Link to={paths.privacy.getHref()}>Privacy Policy</Link>
            </Menu.Item>
            <Menu.Separator />
            <Menu.Item value="sign-out" onClick={onSignOut}>
              <LuLogOut aria-hidden /> Sign out
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
