// A link's card when it is shared in a chat (docs/links.md, "Vista previa al compartir"): the
// limits and the Spanish wording, shared by the edit dialog, the API and the OpenAPI document.

/** What chat apps show before cutting: a longer title or description is lost anyway. */
export const PREVIEW_TITLE_MAX_LENGTH = 120;
export const PREVIEW_DESCRIPTION_MAX_LENGTH = 300;
export const PREVIEW_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A larger canvas is refused before it is decoded (a small file can claim a huge one). */
export const PREVIEW_IMAGE_MAX_SIDE = 8000;
/** The size Open Graph's large cards ask for (1.91:1); every image is cropped to it. */
export const PREVIEW_IMAGE_WIDTH = 1200;
export const PREVIEW_IMAGE_HEIGHT = 630;
export const PREVIEW_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const previewMessages = {
  invalid: 'La vista previa debe llevar un título y una descripción (o ninguno)',
  titleTooLong: `El título de la vista previa no puede superar los ${PREVIEW_TITLE_MAX_LENGTH} caracteres`,
  titleControl: 'El título de la vista previa no puede contener caracteres de control (saltos de línea, tabuladores...) ni invisibles',
  descriptionTooLong: `La descripción de la vista previa no puede superar los ${PREVIEW_DESCRIPTION_MAX_LENGTH} caracteres`,
  descriptionControl: 'La descripción de la vista previa no puede contener caracteres de control (saltos de línea, tabuladores...) ni invisibles',
  imageRequired: 'Elige una imagen para la vista previa',
  imageTooLarge: `La imagen de la vista previa no puede superar los ${PREVIEW_IMAGE_MAX_BYTES / 1024 / 1024} MB`,
  imageType: 'La imagen de la vista previa debe ser JPEG, PNG o WebP',
  imageUnreadable: 'No se ha podido leer la imagen de la vista previa: prueba con otro archivo',
  imageDimensions: `La imagen de la vista previa no puede medir más de ${PREVIEW_IMAGE_MAX_SIDE} píxeles de lado`,
  imageSaved: 'Imagen de la vista previa guardada',
  imageRemoved: 'Imagen de la vista previa quitada',
} as const;
