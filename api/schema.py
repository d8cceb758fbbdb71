from drf_spectacular.openapi import AutoSchema


class RefereeAutoSchema(AutoSchema):
    """Views nest ``InputSerializer``/``OutputSerializer`` (one class per operation); name
    their components after the view so they do not collide."""

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False):
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        if name in ("Input", "Output", "Step"):
            return f"{self.view.__class__.__name__.removesuffix('Api')}{name}"
        return name
