import {
  Box,
  Breadcrumb,
  CloseButton,
  Drawer,
  Flex,
  HStack,
  IconButton,
  Input,
  InputGroup,
  Portal,
  Text,
  useBreakpointValue,
} from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { LuBrainCircuit, LuMenu, LuSearch } from 'react-icons/lu';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ColorModeButton } from '#web/components/ui/color-mode.tsx';
import { paths } from '#web/config/paths.ts';
import { useAuth, useCurrentUser } from '#web/features/auth/hooks/use-auth.tsx';
import { NotificationBell } from '#web/features/notifications/components/notification-bell.tsx';
import { breadcrumbsFor } from '#web/features/shell/utils/nav-items.ts';
import { AccountMenu } from '#web/features/shell/components/account-menu.tsx';
import { Sidebar } from '#web/features/shell/components/sidebar.tsx';
import { topBarSearchFor } from '#web/features/shell/utils/top-bar-search.ts';

const COLLAPSED_KEY = 'iws.sidebar.collapsed';

/** Top bar, sidebar (a drawer on small screens), breadcrumbs and the page. (docs/screens.md#authenticated-shell) */
export function AppShell({ children }: { children: ReactNode }) {
  const me = useCurrentUser();
  const { logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const isSmall = useBreakpointValue({ base: true, md: false }) ?? false;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === 'true');
  const [search, setSearch] = useState('');
  const { user } = me;
  const searchTarget = topBarSearchFor(user.role);
  const crumbs = breadcrumbsFor(location.pathname);

  const signOut = async () => {
    await logout();
    navigate(paths.login.getHref(), { replace: true });
  };
  const toggleCollapsed = () => {
    setCollapsed((c) => {
      localStorage.setItem(COLLAPSED_KEY, String(!c));
      return !c;
    });
  };

  return (
    <Flex direction="column" minH="100vh">
      <Flex
        as="header"
        align="center"
        gap="3"
        px="4"
        py="2"
        borderBottomWidth="1px"
        bg="bg.panel"
        position="sticky"
        top="0"
        zIndex="docked"
      >
        {isSmall && (
          <IconButton aria-label="Open navigation" variant="ghost" size="sm" onClick={() => setDrawerOpen(true)}>
            <LuMenu />
          </IconButton>
        )}
        <Link to={paths.dashboard.getHref()}>
          <HStack gap="2">
            <LuBrainCircuit size="22" aria-hidden />
            <Text fontWeight="bold" hideBelow="sm">
              Imaging Workspace
            </Text>
          </HStack>
        </Link>
        <Box flex="1" maxW="md" hideBelow="md">
          {searchTarget && (
            <form
              role="search"
              onSubmit={(e) => {
                e.preventDefault();
                if (search.trim()) navigate(searchTarget.href(search.trim()));
              }}
            >
              <InputGroup startElement={<LuSearch />}>
                <Input
                  size="sm"
                  placeholder={searchTarget.placeholder}
                  aria-label={searchTarget.label}
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                />
              </InputGroup>
            </form>
          )}
        </Box>
        <HStack ml="auto" gap="2">
          <ColorModeButton />
          <NotificationBell />
          <AccountMenu firstName={user.firstName} lastName={user.lastName} role={user.role} onSignOut={signOut} />
        </HStack>
      </Flex>
      <Flex flex="1" minH="0">
        {!isSmall && (
          <Box
            as="aside"
            w={collapsed ? '16' : '60'}
            borderRightWidth="1px"
            bg="bg.panel"
            flexShrink={0}
            transition="width 0.15s"
          >
            <Sidebar role={user.role} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} onSignOut={signOut} />
          </Box>
        )}
        {isSmall && (
          <Drawer.Root open={drawerOpen} onOpenChange={(e) => setDrawerOpen(e.open)} placement="start">
            <Portal>
              <Drawer.Backdrop />
              <Drawer.Positioner>
                <Drawer.Content maxW="72">
                  <Drawer.Header>
                    <Drawer.Title>Imaging Workspace</Drawer.Title>
                  </Drawer.Header>
                  <Drawer.Body p="0">
                    <Sidebar
                      role={user.role}
                      collapsed={false}
                      onNavigate={() => setDrawerOpen(false)}
                      onSignOut={signOut}
                    />
                  </Drawer.Body>
                  <Drawer.CloseTrigger asChild>
                    <CloseButton size="sm" />
                  </Drawer.CloseTrigger>
                </Drawer.Content>
              </Drawer.Positioner>
            </Portal>
          </Drawer.Root>
        )}
        <Box as="main" flex="1" minW="0" p={{ base: '4', md: '6' }}>
          {crumbs.length > 1 && (
            <Breadcrumb.Root mb="4" size="sm">
              <Breadcrumb.List>
                {crumbs.map((crumb, i) => (
                  <BreadcrumbEntry
                    key={crumb.href}
                    label={crumb.label}
                    href={crumb.href}
                    isLast={i === crumbs.length - 1}
                  />
                ))}
              </Breadcrumb.List>
            </Breadcrumb.Root>
          )}
          {children}
        </Box>
      </Flex>
    </Flex>
  );
}

function BreadcrumbEntry({ label, href, isLast }: { label: string; href: string; isLast: boolean }) {
  return (
    <>
      <Breadcrumb.Item>
        {isLast ? (
          <Breadcrumb.CurrentLink>{label}</Breadcrumb.CurrentLink>
        ) : (
          <Breadcrumb.Link asChild>
            <Link to={href}>{label}</Link>
          </Breadcrumb.Link>
        )}
      </Breadcrumb.Item>
      {!isLast && <Breadcrumb.Separator />}
    </>
  );
}
