from rest_framework.permissions import SAFE_METHODS, BasePermission


class IsModerator(BasePermission):
    message = "Only moderators may do this."

    def has_permission(self, request, view) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.is_staff)


class IsModeratorOrReadOnly(IsModerator):
    """Anyone may read; only moderators write (a league is created by a moderator)."""

    reads_open = True

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or super().has_permission(request, view)
