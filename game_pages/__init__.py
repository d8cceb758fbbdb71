"""Page plug-ins: one Django app per ruleset that draws its pages better than the generic
fallback (``frontend_templates.plugins``). Each app's ``AppConfig.ready()`` registers its
``RulesetPages``; listing the app in INSTALLED_APPS is the one place a plug-in is turned on."""
