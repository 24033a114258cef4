// What the API and the web app say about workspaces, members and invitations.

import { WORKSPACE_SLUG_MAX, WORKSPACE_SLUG_MIN } from './workspace-slug';

export const WORKSPACE_NAME_MAX_LENGTH = 60;
/** Days an invitation stays valid. */
export const INVITE_VALID_DAYS = 7;
/** Team workspaces one account may own. */
export const WORKSPACES_PER_USER = 20;

const quoted = (names: string[]) => names.map((name) => `«${name}»`).join(', ');

export const workspaceMessages = {
  nameRequired: 'El nombre del espacio es obligatorio',
  nameTooLong: `El nombre puede tener como máximo ${WORKSPACE_NAME_MAX_LENGTH} caracteres`,
  slugInvalid: `El identificador debe tener entre ${WORKSPACE_SLUG_MIN} y ${WORKSPACE_SLUG_MAX} caracteres: letras minúsculas sin acentos, números y guiones (no al principio ni al final, ni dos seguidos)`,
  slugReserved: 'Ese identificador está reservado. Elige otro.',
  slugTaken: 'Ya existe un espacio de trabajo con ese identificador. Elige otro.',
  notFound: 'Espacio de trabajo no encontrado.',
  tooMany: `Puedes ser propietario de como máximo ${WORKSPACES_PER_USER} espacios de equipo.`,
  personalNotDeletable: 'Tu espacio personal no se puede eliminar: se elimina con tu cuenta.',
  personalNoMembers: 'Tu espacio personal es solo tuyo: crea un espacio de equipo para invitar a otras personas.',
  roleInvalid: 'El rol debe ser «viewer» (lector), «editor», «admin» (administrador) o «owner» (propietario)',
  forbiddenRole: 'Tu rol en este espacio de trabajo no permite hacer esto.',
  tokenOtherWorkspace: 'Este token pertenece a otro espacio de trabajo y solo actúa en él.',
  lastOwner: 'Un espacio de trabajo necesita al menos un propietario: nombra a otro antes de dejarlo o de cambiar tu rol.',
  ownRole: 'No puedes cambiar tu propio rol.',
  memberNotFound: 'Esa persona no es miembro de este espacio de trabajo.',
  alreadyMember: 'Esa persona ya es miembro de este espacio de trabajo.',
  emailInvalid: 'Escribe una dirección de correo válida',
  inviteNotFound: 'La invitación no existe, ha caducado o ha sido revocada.',
  inviteUsed: 'Esta invitación ya se ha usado.',
  inviteConfirmEmail: 'Confirma tu email antes de aceptar la invitación: abre el enlace que te enviamos al registrarte, o pide otro en «Mi cuenta». Después vuelve a esta página.',
  inviteOtherEmail: 'Esta invitación es para otra dirección de correo. Inicia sesión con la cuenta a la que se envió.',
  invitePending: 'Ya hay una invitación pendiente para esa dirección en este espacio.',
  passwordRequired: 'Escribe tu contraseña para confirmar.',
  deleted: 'Espacio de trabajo eliminado: sus enlaces han dejado de funcionar.',
  ownerOnlyByOwner: 'Solo un propietario puede nombrar, invitar, degradar o quitar a otro propietario.',
  personalDeletedWithAccount: 'Un espacio personal no se elimina por separado: se elimina con la cuenta de su dueño.',
  lastOwnerOfTeams: (names: string[]) =>
    `Eres el único propietario de ${names.length === 1 ? 'el espacio' : 'los espacios'} ${quoted(names)}. Nombra a otro propietario o elimina ${names.length === 1 ? 'ese espacio' : 'esos espacios'} antes de eliminar tu cuenta.`,
  /** The operator's words for the same refusal (DELETE /api/admin/users/:id). */
  userLastOwnerOfTeams: (names: string[]) =>
    `Esta cuenta es la única propietaria de ${names.length === 1 ? 'el espacio' : 'los espacios'} ${quoted(names)}, con más miembros. Hay que nombrar a otro propietario antes de eliminarla.`,
} as const;
