import { Badge, Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { NavLink, Outlet, Link } from 'react-router-dom';
import { useHospitalAdminOverview } from '#web/features/hospital-admin/api/overview.ts';
import { ADMIN_NAV_GROUPS, ADMIN_QUICK_LINKS, badgeCount } from '#web/features/hospital-admin/utils/admin-nav.ts';

/** The hospital-admin area: its own sidebar (groups, badges, quick links) beside the nested page. */
export function HospitalAdminLayout() {
  const { data: overview } = useHospitalAdminOverview();
  return (
    <Flex gap="6" direction={{ base: 'column', lg: 'row' }} align="start">
      <Stack
        as="nav"
        aria-label="Hospital admin navigation"
        w={{ base: 'full', lg: '60' }}
        flexShrink={0}
        gap="4"
        borderWidth="1px"
        rounded="md"
        p="3"
        bg="bg.panel"
      >
        {overview && (
          <Text fontWeight="semibold" fontSize="sm" data-testid="admin-hospital-name">
            {overview.hospital.name}
          </Text>
        )}
        {ADMIN_NAV_GROUPS.map((group) => (
          <Stack key={group.title} gap="1">
            <Text fontSize="xs" textTransform="uppercase" color="fg.muted" fontWeight="semibold">
              {group.title}
            </Text>
            {group.items.map((item) => {
              const count = badgeCount(item, overview);
              return (
                <NavLink key={item.href} to={item.href} end={item.end}>
                  {({ isActive }) => (
                    <Flex
                      align="center"
                      justify="space-between"
                      px="3"
                      py="1.5"
                      rounded="md"
                      colorPalette="blue"
                      bg={isActive ? 'colorPalette.subtle' : undefined}
                      color={isActive ? 'colorPalette.fg' : 'fg'}
                      _hover={{ bg: 'bg.muted' }}
                      aria-current={isActive ? 'page' : undefined}
                    >
                      <Text fontSize="sm">{item.label}</Text>
                      {count !== undefined && (
                        <Badge size="sm" colorPalette="blue" data-testid={`badge-${item.label}`}>
                          {count}
                        </Badge>
                      )}
                    </Flex>
                  )}
                </NavLink>
              );
            })}
          </Stack>
        ))}
        <Stack gap="2" borderTopWidth="1px" pt="3">
          <Text fontSize="xs" textTransform="uppercase" color="fg.muted" fontWeight="semibold">
            Quick Links
          </Text>
          {ADMIN_QUICK_LINKS.map((q) => (
            <Button key={q.label} asChild size="sm" variant="outline" justifyContent="flex-start">
              <Link to={q.href}>{q.label}</Link>
            </Button>
          ))}
        </Stack>
      </Stack>
      <Box flex="1" minW="0" w="full">
        <Outlet />
      </Box>
    </Flex>
  );
}
