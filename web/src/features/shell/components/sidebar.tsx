import { Box, Button, IconButton, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import {
  LuChartBar,
  LuDatabase,
  LuHospital,
  LuLayoutDashboard,
  LuLogOut,
  LuPanelLeftClose,
  LuPanelLeftOpen,
  LuSettings,
  LuShieldCheck,
  LuUpload,
  LuUsers,
  LuUsersRound,
} from 'react-icons/lu';
import { NavLink } from 'react-router-dom';
import type { Role } from '#shared/vocabulary/roles.ts';
import { navItemsFor } from '#web/features/shell/utils/nav-items.ts';

const ICONS: Record<string, IconType> = {
  Dashboard: LuLayoutDashboard,
  Hospitals: LuHospital,
  Datasets: LuDatabase,
  'Upload DICOM': LuUpload,
  Teams: LuUsersRound,
  Users: LuUsers,
  Compliance: LuShieldCheck,
  Reports: LuChartBar,
  Settings: LuSettings,
};

type Props = {
  role: Role;
  collapsed: boolean;
  onToggleCollapsed?: () => void;
  onNavigate?: () => void;
  onSignOut(): void;
};

export function Sidebar({ role, collapsed, onToggleCollapsed, onNavigate, onSignOut }: Props) {
  return (
    <Stack as="nav" aria-label="Main navigation" h="full" justify="space-between" p="3" gap="4">
      <Stack gap="1">
        {onToggleCollapsed && (
          <IconButton
            aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
            variant="ghost"
            size="sm"
            alignSelf={collapsed ? 'center' : 'flex-end'}
            onClick={onToggleCollapsed}
          >
            {collapsed ? <LuPanelLeftOpen /> : <LuPanelLeftClose />}
          </IconButton>
        )}
        {navItemsFor(role).map((item) => {
          const Icon = ICONS[item.label] ?? LuLayoutDashboard;
          return (
            <NavLink key={item.href} to={item.href} onClick={onNavigate} title={collapsed ? item.label : undefined}>
              {({ isActive }) => (
                <Box
                  display="flex"
                  alignItems="center"
                  gap="3"
                  px="3"
                  py="2"
                  rounded="md"
                  bg={isActive ? 'colorPalette.subtle' : undefined}
                  colorPalette="blue"
                  color={isActive ? 'colorPalette.fg' : 'fg'}
                  _hover={{ bg: 'bg.muted' }}
                  aria-current={isActive ? 'page' : undefined}
                >
                  <Icon aria-hidden />
                  {!collapsed && <Text>{item.label}</Text>}
                </Box>
              )}
            </NavLink>
          );
        })}
      </Stack>
      <Button
        variant="ghost"
        justifyContent={collapsed ? 'center' : 'flex-start'}
        onClick={onSignOut}
        aria-label="Sign out"
      >
        <LuLogOut />
        {!collapsed && 'Sign out'}
      </Button>
    </Stack>
  );
}
